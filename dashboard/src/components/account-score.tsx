/**
 * A company's account score with its reasons and what it means, beside it
 * (C9.4, C9.8; docs/intelligence.md, "Accounts"): the best fit of its
 * people plus the engagement of all of them over the last 30 days, read
 * like the lead score on a lead's page.
 */
export function AccountScore({ score, reasons }: { score: number; reasons: string[] }) {
  return (
    <section className="card" aria-labelledby="account-score-title">
      <h2 id="account-score-title">Account score</h2>
      <p className="score">
        <meter min={0} max={100} value={score} aria-label="Account score" /> <strong>{score}</strong> / 100
      </p>
      <div className="explanation">
        <p>
          <strong>Fit</strong> (up to 50): the best fit among its people and visitors: a business email, a known company, and your ideal customer in
          Settings (industry, size, country).
        </p>
        <p>
          <strong>Engagement</strong> (up to 50): the visits of all its people and anonymous visitors in the last 30 days added up, recent ones
          counting more; one engaged person makes a warm account, several a hot one.
        </p>
        <p className="explanation-label">What weighed most</p>
        {reasons.length === 0 ? (
          <p className="muted">Nothing yet: no visit or fit signal in the last 30 days.</p>
        ) : (
          <ul className="compact" aria-label="Score reasons">
            {reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
