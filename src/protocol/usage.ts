// A session's context use and cost (ACP `usage_update`), read once for every place that shows it:
// the chat's meter and info line, and the exported conversation. The SDK already drops an update
// whose token counts are not non-negative integers; this check is the one the display relies on
// (a size of 0, a cost that is not a finite number with a currency), so a figure it cannot show
// sensibly is left out rather than drawn as NaN or a bar past its end. Pure; imports nothing.

export interface SessionUsage {
  used: number;
  size: number;
  cost?: { amount: number; currency: string };
}

/** Past this share of the context window the meter turns to its warning colour. */
export const USAGE_WARNING_PERCENT = 80;

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/** The usage an update reports, or undefined (with the reason) when it cannot be shown. */
export function readUsage(raw: unknown): { usage: SessionUsage } | { invalid: string } {
  if (typeof raw !== 'object' || raw === null) return { invalid: 'not an object' };
  const { used, size, cost } = raw as { used?: unknown; size?: unknown; cost?: unknown };
  if (!isCount(used)) return { invalid: `used is not a token count: ${JSON.stringify(used) ?? 'missing'}` };
  if (!isCount(size) || size === 0) return { invalid: `size is not a context size: ${JSON.stringify(size) ?? 'missing'}` };
  const usage: SessionUsage = { used, size };
  if (typeof cost === 'object' && cost !== null) {
    const { amount, currency } = cost as { amount?: unknown; currency?: unknown };
    // A cost that cannot be read is left out; the token counts still stand.
    if (typeof amount === 'number' && Number.isFinite(amount) && amount >= 0 && typeof currency === 'string' && currency.trim() !== '')
      usage.cost = { amount, currency: currency.trim().slice(0, 16) };
  }
  return { usage };
}

/** Share of the context window in use, 0..100 (an agent may count past its window). */
export const usagePercent = (u: SessionUsage): number => Math.min(100, Math.round((u.used / u.size) * 100));

const compact = (n: number): string =>
  n >= 1_000_000 ? `${+(n / 1_000_000).toFixed(1)}M` : n >= 1_000 ? `${+(n / 1_000).toFixed(1)}k` : String(Math.round(n));

/** `15k of 258k tokens (6 %)`. */
export const contextText = (u: SessionUsage): string => `${compact(u.used)} of ${compact(u.size)} tokens (${usagePercent(u)} %)`;

/** `0.0018 USD`, or undefined when the agent reported no cost. */
export const costText = (u: SessionUsage): string | undefined => (u.cost ? `${+u.cost.amount.toFixed(4)} ${u.cost.currency}` : undefined);
