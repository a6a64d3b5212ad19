/**
 * A session's device type and browser from its User-Agent (C9.5's device and
 * browser breakdowns), parsed by bowser (MIT). A batch's events share one
 * User-Agent, and a site's visitors a few hundred, so answers are kept in a
 * small map that is emptied when full: the parse is paid once per agent.
 */
import Bowser from 'bowser';

export interface Agent {
  /** desktop, mobile, tablet or tv; '' when unknown */
  device: string;
  /** the browser's name (Chrome, Safari, Firefox…); '' when unknown */
  browser: string;
}

const KNOWN_DEVICES = new Set(['desktop', 'mobile', 'tablet', 'tv']);
const CACHE_SIZE = 2_000;
const cache = new Map<string, Agent>();

export function agentOf(userAgent: string | null): Agent {
  const text = (userAgent ?? '').trim();
  if (text === '') return { device: '', browser: '' };
  const known = cache.get(text);
  if (known !== undefined) return known;
  let agent: Agent;
  try {
    const parser = Bowser.getParser(text);
    const device = String(parser.getPlatformType(true) ?? '');
    agent = { device: KNOWN_DEVICES.has(device) ? device : '', browser: (parser.getBrowserName() ?? '').slice(0, 100) };
  } catch {
    agent = { device: '', browser: '' };
  }
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(text, agent);
  return agent;
}
