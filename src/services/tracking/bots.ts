/**
 * Requests that are not a person's visit (CONTRACT C5.3): bots, crawlers and
 * headless browsers, told by their User-Agent. `isbot` keeps the list of
 * known bots (HeadlessChrome and PhantomJS among them); on top of it, a
 * request without a User-Agent, one that calls itself headless, and a
 * Chromium whose client hints name a headless brand. A site's visitors
 * send a few hundred User-Agents, and isbot's pattern is long: answers are
 * memoized (memo.ts).
 */
import { isbot } from 'isbot';
import { memoize } from './memo.js';

const HEADLESS = /headless|puppeteer|playwright|selenium|webdriver/i;

export interface UserAgentSignals {
  userAgent: string | undefined;
  /** the Sec-CH-UA client hint, when sent */
  clientHints?: string | undefined;
}

const automatedAgent = memoize((userAgent) => userAgent.trim() === '' || HEADLESS.test(userAgent) || isbot(userAgent), 2_000);

export function isAutomated({ userAgent, clientHints }: UserAgentSignals): boolean {
  if (userAgent === undefined || automatedAgent(userAgent)) return true;
  return clientHints !== undefined && HEADLESS.test(clientHints);
}
