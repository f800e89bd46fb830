/**
 * What the RBAC authorizer is asked and what it answers (authorizer.Attributes and Decision of
 * k8s.io/apiserver, reduced to what RBAC reads). "No opinion" is a denial here: RBAC is the only
 * authorizer after the system:masters short-circuit.
 */
export interface Attributes {
  readonly user: { readonly username: string; readonly groups: readonly string[] };
  readonly verb: string;
  readonly resourceRequest: boolean;
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  /** The request path, for non-resource requests. */
  readonly path: string;
}

/** `reason` is "" when nothing went wrong resolving the user's roles; it is appended to the 403. */
export type Decision = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };
