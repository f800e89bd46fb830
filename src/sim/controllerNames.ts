/**
 * The names a fault rule may call a controller by: its own (`statefulset-controller`, `csr-signer`,
 * a user's controller's) and, for the built-ins that stand for a kube-controller-manager
 * controller, that controller's short `--controllers` name (`statefulset`, `csrsigning`, …), so
 * rules written against the real component's names work too.
 */
const managerNames: Readonly<Record<string, string>> = {
  'namespace-controller': 'namespace',
  'serviceaccount-controller': 'serviceaccount',
  'statefulset-controller': 'statefulset',
  'csr-approver': 'csrapproving',
  'csr-signer': 'csrsigning',
  'csr-cleaner': 'csrcleaner',
  'garbage-collector': 'garbagecollector',
  'node-controller': 'nodelifecycle',
};

export function namesOfController(name: string): readonly string[] {
  const alias = Object.hasOwn(managerNames, name) ? managerNames[name] : undefined;
  return alias === undefined ? [name] : [name, alias];
}

/** The names of the controllers of a list that a rule's name stands for. */
export function controllersNamed(name: string, controllers: readonly { readonly name: string }[]): readonly string[] {
  return controllers.filter((c) => namesOfController(c.name).includes(name)).map((c) => c.name);
}
