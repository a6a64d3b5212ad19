/**
 * The digest email (CONTRACT C10.4): a subject, a plain-text part and an
 * HTML part made for mail clients (nested tables for layout, every style
 * inline, widths as attributes, no images, no scripts, no CSS classes: what
 * Gmail, Outlook and Apple Mail all render), with links to the dashboard's
 * pages under PUBLIC_URL. Pure.
 */
import type { DigestContent } from './content.js';

export interface DigestEmail {
  subject: string;
  text: string;
  html: string;
}

const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** A page of the dashboard under PUBLIC_URL; null without one. */
export function dashboardLink(publicUrl: string | undefined, path: string): string | null {
  if (publicUrl === undefined) return null;
  return new URL(path.replace(/^\//, ''), publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`).toString();
}

/** The period in words, in the workspace's time zone: "Monday, 2 March 2026" or "23 February – 2 March 2026". */
function periodLabel(content: DigestContent): string {
  const day = (instant: number, withWeekday: boolean) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: content.timeZone, weekday: withWeekday ? 'long' : undefined, day: 'numeric', month: 'long', year: 'numeric' }).format(instant);
  return content.period.frequency === 'daily' ? day(content.period.sendAt, true) : `${day(content.period.from, false)} – ${day(content.period.sendAt, false)}`;
}

interface Row {
  title: string;
  detail: string;
  badge: string | null;
  link: string | null;
}

interface Section {
  heading: string;
  empty: string;
  rows: Row[];
  more: string | null;
}

function sections(content: DigestContent, publicUrl: string | undefined): Section[] {
  const leads = content.leads;
  return [
    {
      heading: `New qualified leads (${leads.total})`,
      empty: 'No new qualified leads.',
      rows: leads.items.map((lead) => ({
        title: lead.person_name ?? lead.person_email ?? lead.code ?? 'A lead',
        detail: [lead.person_name !== null ? lead.person_email : null, lead.company_name, lead.code === null ? null : `form ${lead.code}`].filter((part) => part !== null).join(' · '),
        badge: `Score ${lead.score}`,
        link: dashboardLink(publicUrl, `/leads/${lead.id}`),
      })),
      more: leads.total > leads.items.length ? `and ${plural(leads.total - leads.items.length, 'more lead', 'more leads')}` : null,
    },
    {
      heading: 'Most engaged companies',
      empty: 'No company was engaged.',
      rows: content.companies.map((company) => ({
        title: company.name,
        detail: [company.domain, ...company.reasons].filter((part) => part !== null).join(' · '),
        badge: `Account ${company.score}`,
        link: dashboardLink(publicUrl, `/companies/${company.id}`),
      })),
      more: null,
    },
    {
      heading: 'People who came back',
      empty: 'Nobody came back.',
      rows: content.people.map((person) => ({
        title: person.name ?? person.email ?? 'Someone',
        detail: [person.name !== null ? person.email : null, person.company_name, `first seen ${person.first_seen.slice(0, 10)}`].filter((part) => part !== null).join(' · '),
        badge: null,
        link: dashboardLink(publicUrl, `/identities/${person.identity_id}`),
      })),
      more: null,
    },
  ];
}

const FONT = 'font-family:Arial,Helvetica,sans-serif';

function htmlSection(section: Section): string {
  const heading = `<tr><td style="padding:24px 0 8px;${FONT};font-size:16px;font-weight:bold;color:#111827;border-bottom:2px solid #e5e7eb">${html(section.heading)}</td></tr>`;
  if (section.rows.length === 0) return `${heading}<tr><td style="padding:12px 0;${FONT};font-size:14px;color:#6b7280">${html(section.empty)}</td></tr>`;
  const rows = section.rows
    .map((row) => {
      const title = row.link === null ? html(row.title) : `<a href="${html(row.link)}" style="color:#1d4ed8;text-decoration:none;font-weight:bold">${html(row.title)}</a>`;
      const badge = row.badge === null ? '' : `<span style="display:inline-block;padding:2px 8px;border-radius:10px;background-color:#dcfce7;color:#166534;font-size:12px;font-weight:bold">${html(row.badge)}</span>`;
      return `<tr><td style="padding:10px 0;border-bottom:1px solid #f3f4f6"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr>
<td style="${FONT};font-size:14px;line-height:20px;color:#111827">${title}${row.detail === '' ? '' : `<br><span style="color:#6b7280;font-size:13px">${html(row.detail)}</span>`}</td>
<td align="right" valign="top" width="110" style="${FONT};white-space:nowrap">${badge}</td></tr></table></td></tr>`;
    })
    .join('\n');
  const more = section.more === null ? '' : `<tr><td style="padding:8px 0;${FONT};font-size:13px;color:#6b7280">${html(section.more)}</td></tr>`;
  return `${heading}\n${rows}${more}`;
}

export function digestEmail(content: DigestContent, publicUrl: string | undefined): DigestEmail {
  const kind = content.period.frequency === 'daily' ? 'Daily' : 'Weekly';
  const when = periodLabel(content);
  const counts = [plural(content.leads.total, 'qualified lead', 'qualified leads'), plural(content.companies.length, 'engaged company', 'engaged companies'), plural(content.people.length, 'person back', 'people back')];
  const subject = `${kind} digest for ${content.workspace}: ${counts.join(', ')}`;
  const settings = dashboardLink(publicUrl, '/settings');
  const all = sections(content, publicUrl);
  const text = [
    `Leadlight · ${kind} digest for ${content.workspace}`,
    `${when} (to 08:00 ${content.timeZone})`,
    ...all.flatMap((section) => [
      '',
      section.heading.toUpperCase(),
      ...(section.rows.length === 0 ? [section.empty] : section.rows.map((row) => `- ${row.title}${row.badge === null ? '' : ` (${row.badge})`}${row.detail === '' ? '' : `\n  ${row.detail}`}${row.link === null ? '' : `\n  ${row.link}`}`)),
      ...(section.more === null ? [] : [section.more]),
    ]),
    '',
    '--',
    `You get this ${kind.toLowerCase()} email because you chose it in Leadlight (Settings → Email digest).${settings === null ? '' : ` Change it: ${settings}`}`,
  ].join('\n');
  const footer = `You get this ${kind.toLowerCase()} email because you chose it in Leadlight (Settings → Email digest).${settings === null ? '' : ` <a href="${html(settings)}" style="color:#6b7280">Change it</a>.`}`;
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${html(subject)}</title></head>
<body style="margin:0;padding:0;background-color:#f3f4f6">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="#f3f4f6" style="background-color:#f3f4f6"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" bgcolor="#ffffff" style="width:100%;max-width:600px;background-color:#ffffff;border-radius:8px">
<tr><td style="padding:24px 24px 0">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">
<tr><td style="${FONT};font-size:12px;letter-spacing:1px;text-transform:uppercase;color:#6b7280">Leadlight · ${html(kind)} digest</td></tr>
<tr><td style="padding:4px 0 0;${FONT};font-size:22px;font-weight:bold;color:#111827">${html(content.workspace)}</td></tr>
<tr><td style="padding:4px 0 0;${FONT};font-size:14px;color:#374151">${html(when)} <span style="color:#6b7280">(to 08:00 ${html(content.timeZone)})</span></td></tr>
${all.map(htmlSection).join('\n')}
</table></td></tr>
<tr><td style="padding:24px;${FONT};font-size:12px;line-height:18px;color:#6b7280">${footer}</td></tr>
</table></td></tr></table>
</body></html>`;
  return { subject, text, html: body };
}
