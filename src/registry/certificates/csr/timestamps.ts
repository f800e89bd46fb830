/**
 * Condition timestamps on `/status` and `/approval` writes (strategy.go
 * populateConditionTimestamps): an unset lastUpdateTime becomes now; an unset
 * lastTransitionTime reuses the stored one of a condition with the same type and status, else
 * now. Timestamps the client sent are kept.
 */
import { formatInstant, parseInstant, type Instant } from '../../../core/duration.ts';
import type { Condition } from './fields.ts';

const goZeroTime = parseInstant('0001-01-01T00:00:00Z');

/** metav1.Time.IsZero: absent, empty, or Go's zero instant. */
function isZero(t: string | undefined): boolean {
  return t === undefined || t === '' || parseInstant(t) === goZeroTime;
}

export function withTimestamps(conditions: readonly Condition[], stored: readonly Condition[], now: Instant): Condition[] {
  const stamp = formatInstant(now);
  return conditions.map((c) => {
    const lastUpdateTime = isZero(c.lastUpdateTime) ? stamp : c.lastUpdateTime!;
    let lastTransitionTime = c.lastTransitionTime;
    if (isZero(lastTransitionTime)) {
      const same = stored.find((o) => o.type === c.type && o.status === c.status && !isZero(o.lastTransitionTime));
      lastTransitionTime = same?.lastTransitionTime ?? stamp;
    }
    return { ...c, lastUpdateTime, lastTransitionTime: lastTransitionTime! };
  });
}
