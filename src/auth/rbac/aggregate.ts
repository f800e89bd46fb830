/**
 * utilerrors.NewAggregate(...).Error() of k8s.io/apimachinery: one message bare, several
 * deduplicated (first occurrence kept) and joined in brackets, `[a, b]`.
 */
export function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}
