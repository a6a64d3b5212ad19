/**
 * What a personality means, beside it (CONTRACT C9.8, C6.3): a hypothesis
 * about a visitor's buying style drawn from behaviour, never a fact; the
 * evidence the model weighed for that style (the features it sums, as
 * docs/intelligence.md "Personalities" defines them), its confidence (how far
 * the style leads the next one) and how much of the evidence it wants it has
 * seen. An entry written by a client (import or API) carries no features and
 * says so.
 */
import { percent } from '../format';
import type { JsonObject } from '../types';

/** The model's evidence for each type (src/intelligence/personality.ts), as a person reads it. */
const EVIDENCE: Record<string, { feature: string; reads: (value: number) => string }[]> = {
  Analytical: [
    { feature: 'share_docs', reads: (value) => `${percent(value)} of page views on documentation` },
    { feature: 'share_comparison', reads: (value) => `${percent(value)} on comparison pages` },
    { feature: 'avg_session_seconds', reads: (value) => `visits last ${duration(value)} on average` },
  ],
  Decisive: [
    { feature: 'share_pricing', reads: (value) => `${percent(value)} of page views on pricing` },
    { feature: 'hours_to_convert', reads: (value) => `converted ${value < 1 ? 'within the hour' : `after ${Math.round(value)} h`}` },
    { feature: 'pages_per_session', reads: (value) => `${value} pages a visit (fewer reads as more direct)` },
  ],
  Explorer: [
    { feature: 'share_blog', reads: (value) => `${percent(value)} of page views on the blog` },
    { feature: 'pages_per_session', reads: (value) => `${value} pages a visit` },
    { feature: 'page_views', reads: (value) => `${value} page views in all` },
  ],
  Cautious: [
    { feature: 'share_security', reads: (value) => `${percent(value)} of page views on security pages` },
    { feature: 'return_days', reads: (value) => `came back on ${value} other day${value === 1 ? '' : 's'}` },
    { feature: 'share_careers', reads: (value) => `${percent(value)} on careers pages` },
  ],
};

/** the evidence the model wants before it is sure (EVIDENCE_NEEDED: page views + 5 × sessions) */
const EVIDENCE_NEEDED = 50;

function duration(seconds: number): string {
  return seconds < 90 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} min`;
}

const numberOf = (features: JsonObject, name: string): number | undefined => (typeof features[name] === 'number' ? (features[name] as number) : undefined);

export function PersonalityExplanation({ type, score, learning, features }: { type: string; score: number; learning: number; features: JsonObject }) {
  const evidence = (EVIDENCE[type] ?? []).flatMap(({ feature, reads }) => {
    const value = numberOf(features, feature);
    return value === undefined ? [] : [reads(value)];
  });
  const views = numberOf(features, 'page_views');
  const sessions = numberOf(features, 'sessions');
  return (
    <div className="explanation">
      <p>
        A hypothesis about how this person buys, drawn from their visits, not a fact they told you: <strong>{type}</strong> is the style their
        behaviour supports most.
      </p>
      {evidence.length > 0 ? (
        <>
          <p className="explanation-label">Evidence</p>
          <ul className="compact">
            {evidence.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      ) : (
        <p className="muted">No evidence recorded with this entry: it was written through the API or an import.</p>
      )}
      <p>
        <strong>Confidence {percent(score)}</strong>: how far {type} leads the next most likely style (0% is a tie).{' '}
        <strong>Learning {percent(learning)}</strong>:{' '}
        {views !== undefined && sessions !== undefined
          ? `${views} page views and ${sessions} session${sessions === 1 ? '' : 's'} seen of the evidence the model wants (page views + 5 × sessions = ${EVIDENCE_NEEDED})`
          : `the share of the evidence the model wants (page views + 5 × sessions = ${EVIDENCE_NEEDED}) it has seen`}
        ; a reading grows surer as the visitor comes back.
      </p>
    </div>
  );
}
