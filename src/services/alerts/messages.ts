/**
 * What an alert says (CONTRACT C10.2), made from a firing's facts: a Slack
 * incoming-webhook body (`text` for notifications and `blocks` in Block
 * Kit: a header, who and what, the score and its reasons, the pages, a
 * context line and a button to the dashboard's page, within Slack's limits:
 * a header's text at most 150 characters, a section's 3,000, a button's 75,
 * at most 50 blocks), and an email (subject, a plain-text part and an HTML
 * part with inline styles). Pure.
 */
import type { AlertFacts } from './model.js';

export const SLACK_LIMITS = { header: 150, section: 3000, button: 75, url: 3000, blocks: 50, text: 40_000 } as const;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
/** Slack's mrkdwn escapes: &, < and > (https://api.slack.com/reference/surfaces/formatting#escaping) */
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const htmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The dashboard's page of the firing's person or company, under PUBLIC_URL. */
export function linkOf(publicUrl: string | undefined, facts: Pick<AlertFacts, 'person' | 'company'>): string | null {
  if (publicUrl === undefined) return null;
  const path = facts.person !== null ? `/identities/${facts.person.id}` : facts.company !== null ? `/companies/${facts.company.id}` : null;
  return path === null ? null : new URL(path, publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`).toString();
}

/** Who it is about, in words: the person's name or email, else the company, else an anonymous visitor. */
export function whoOf(facts: AlertFacts): string {
  return facts.person?.name ?? facts.person?.email ?? (facts.company === null ? 'An anonymous visitor' : `A visitor from ${facts.company.name}`);
}

function headline(facts: AlertFacts): string {
  const company = facts.person !== null && facts.company !== null ? ` (${facts.company.name})` : '';
  return `${whoOf(facts)}${company} ${facts.summary}`;
}

function scoreLine(facts: AlertFacts): string | null {
  if (facts.score === null) return null;
  return `Score ${facts.score}${facts.reasons.length > 0 ? `: ${facts.reasons.join('; ')}` : ''}`;
}

export interface SlackMessage {
  text: string;
  blocks: Record<string, unknown>[];
}

export function slackMessage(facts: AlertFacts): SlackMessage {
  const title = `${facts.test ? '[Test] ' : ''}${facts.alert.name}`;
  const blocks: Record<string, unknown>[] = [{ type: 'header', text: { type: 'plain_text', text: clip(title, SLACK_LIMITS.header), emoji: true } }];
  const who = facts.person?.email !== null && facts.person?.email !== undefined && facts.person.name !== null ? ` <mailto:${facts.person.email}|${slackEscape(facts.person.email)}>` : '';
  const company = facts.company === null ? '' : `\n*Company:* ${slackEscape(facts.company.name)}${facts.company.domain === null ? '' : ` (${slackEscape(facts.company.domain)})`}`;
  const country = facts.country === null ? '' : `\n*Country:* ${slackEscape(facts.country)}`;
  blocks.push({ type: 'section', text: { type: 'mrkdwn', text: clip(`*${slackEscape(whoOf(facts))}*${who} ${slackEscape(facts.summary)}${company}${country}`, SLACK_LIMITS.section) } });
  const score = scoreLine(facts);
  if (score !== null) {
    const reasons = facts.reasons.map((reason) => `• ${slackEscape(reason)}`).join('\n');
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: clip(`*Score:* ${facts.score}${reasons === '' ? '' : `\n${reasons}`}`, SLACK_LIMITS.section) } });
  }
  if (facts.pages.length > 0) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: clip(`*Pages:* ${facts.pages.map((page) => `\`${slackEscape(page)}\``).join(' → ')}`, SLACK_LIMITS.section) } });
  }
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: clip(`Leadlight alert · ${slackEscape(facts.alert.name)} · ${facts.occurred_at}`, SLACK_LIMITS.section) }] });
  if (facts.link !== null && facts.link.length <= SLACK_LIMITS.url) {
    blocks.push({
      type: 'actions',
      elements: [{ type: 'button', text: { type: 'plain_text', text: clip(facts.person !== null ? 'Open person in Leadlight' : 'Open company in Leadlight', SLACK_LIMITS.button) }, url: facts.link, style: 'primary' }],
    });
  }
  return { text: clip(`${title}: ${headline(facts)}`, SLACK_LIMITS.text), blocks: blocks.slice(0, SLACK_LIMITS.blocks) };
}

export interface EmailMessage {
  subject: string;
  text: string;
  html: string;
}

export function emailMessage(facts: AlertFacts): EmailMessage {
  const title = `${facts.test ? '[Test] ' : ''}${facts.alert.name}`;
  const lines: [string, string][] = [];
  if (facts.company !== null) lines.push(['Company', `${facts.company.name}${facts.company.domain === null ? '' : ` (${facts.company.domain})`}`]);
  if (facts.person?.email) lines.push(['Email', facts.person.email]);
  if (facts.country !== null) lines.push(['Country', facts.country]);
  if (facts.score !== null) lines.push(['Score', String(facts.score)]);
  if (facts.pages.length > 0) lines.push(['Pages', facts.pages.join(' → ')]);
  const text = [
    headline(facts),
    '',
    ...lines.map(([label, value]) => `${label}: ${value}`),
    ...(facts.reasons.length > 0 ? ['', 'Why:', ...facts.reasons.map((reason) => `- ${reason}`)] : []),
    ...(facts.link === null ? [] : ['', `Open in Leadlight: ${facts.link}`]),
    '',
    `Leadlight alert "${facts.alert.name}" · ${facts.occurred_at}`,
  ].join('\n');
  const cell = 'padding:4px 12px 4px 0;font:14px/1.4 Arial,sans-serif;color:#111827;vertical-align:top';
  const rows = lines.map(([label, value]) => `<tr><td style="${cell};color:#6b7280">${htmlEscape(label)}</td><td style="${cell}">${htmlEscape(value)}</td></tr>`).join('');
  const reasons = facts.reasons.length === 0 ? '' : `<ul style="margin:8px 0;padding-left:20px;font:14px/1.4 Arial,sans-serif;color:#111827">${facts.reasons.map((reason) => `<li>${htmlEscape(reason)}</li>`).join('')}</ul>`;
  const button =
    facts.link === null
      ? ''
      : `<p style="margin:16px 0"><a href="${htmlEscape(facts.link)}" style="display:inline-block;background:#2563eb;color:#ffffff;text-decoration:none;padding:10px 16px;border-radius:6px;font:bold 14px Arial,sans-serif">Open in Leadlight</a></p>`;
  const html = `<!doctype html><html><body style="margin:0;padding:24px;background:#f3f4f6"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px"><tr><td style="padding:24px">
<h1 style="margin:0 0 8px;font:bold 18px Arial,sans-serif;color:#111827">${htmlEscape(title)}</h1>
<p style="margin:0 0 16px;font:16px/1.4 Arial,sans-serif;color:#111827"><strong>${htmlEscape(whoOf(facts))}</strong> ${htmlEscape(facts.summary)}</p>
<table role="presentation" cellpadding="0" cellspacing="0">${rows}</table>${reasons}${button}
<p style="margin:16px 0 0;font:12px Arial,sans-serif;color:#6b7280">Leadlight alert "${htmlEscape(facts.alert.name)}" · ${htmlEscape(facts.occurred_at)}</p>
</td></tr></table></body></html>`;
  return { subject: clip(`${title}: ${headline(facts)}`, 200), text, html };
}
