/**
 * Requests that are not a person's visit (CONTRACT C5.3): bots, crawlers and
 * headless browsers, told by their User-Agent. `isbot` keeps the list of
 * known bots (HeadlessChrome and PhantomJS among them); on top of it, a
 * request without a User-Agent, one that calls itself headless, and a
 * Chromium whose client hints name a headless brand.
 */
import { isbot } from 'isbot';

const HEADLESS = /headless|puppeteer|playwright|selenium|webdriver/i;

export interface UserAgentSignals {
  userAgent: string | undefined;
  /** the Sec-CH-UA client hint, when sent */
  clientHints?: string | undefined;
}

export function isAutomated({ userAgent, clientHints }: UserAgentSignals): boolean {
  if (userAgent === undefined || userAgent.trim() === '') return true;
  if (HEADLESS.test(userAgent) || isbot(userAgent)) return true;
  return clientHints !== undefined && HEADLESS.test(clientHints);
}
