// A UTC timestamp in ISO 8601 form (`2026-11-23T10:00:00.000Z`, what Date#toISOString gives) from
// milliseconds since the epoch, by arithmetic. Why not Date: the conductor stamps every trace
// line, and formatting through Date pulls the engine's date and calendar code into memory: the
// traced conductor's resident memory was 0.6 MB higher with it (docs/benchmarks.md), against a
// 60 MB budget. Days → civil date is Howard Hinnant's `civil_from_days` (proleptic Gregorian),
// which is exact for every date; four-digit years only (0000–9999), as the trace needs.

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

export function isoUtc(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  let rest = ms - days * 86_400_000;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = Math.floor(rest - seconds * 1000);
  // civil_from_days: eras of 400 years (146 097 days) starting on 0000-03-01.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hours)}:${pad(minutes)}:${pad(seconds)}.${pad(millis, 3)}Z`;
}
