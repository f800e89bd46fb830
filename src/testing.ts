/**
 * platform-sim/testing: fast-check arbitraries (taking the caller's `fc`) of valid and near-valid
 * bodies of the served kinds, model-based commands and the explorer, the invariant checkers that
 * tests run after every step, the hook for a token validator under test, and scenarios: load, run
 * (in process by default) and report.
 */
export { dnsLabel, labels, serviceAccount } from './testing/arbitraries.ts';
export type { Fc } from './testing/arbitraries.ts';
export { checkAll, checkers } from './sim/checkers/all.ts';
export type { Checker } from './sim/checkers/types.ts';
export { loadScenario, formatLocated } from './scenario/load.ts';
export type { Loaded, LocatedError } from './scenario/load.ts';
export { runScenario } from './scenario/run.ts';
export type { RunOptions, ScenarioResult, StepRecord, Failure, IssuedToken } from './scenario/run.ts';
export { InProcessDriver } from './scenario/inProcess.ts';
export type { ScenarioDriver, Answer, DriverRequest, Capability } from './scenario/driver.ts';
export { renderScenarioReport } from './scenario/report.ts';
export type { ReportedScenario } from './scenario/report.ts';
export type { Scenario, Step, ScenarioOptions, Manifest, ObjectRef, Expectation, AnswerExpectation, FieldCheck, TokenExpectation, RequestSpec, CsrDecision, CertificateRequestStep } from './scenario/format.ts';
export { statefulSet, configMap, tokenRequest, certificateSigningRequest, clusterTrustBundle } from './testing/objects.ts';
export { tokenReview, refusedTokenReview, selfSubjectReview, type RefusedReview } from './testing/reviewObjects.ts';
export { rejectedStatefulSet, rejectedServiceAccount, rejectedConfigMap, rejectedTokenRequest, rejectedCertificateSigningRequest, rejectedClusterTrustBundle } from './testing/rejections.ts';
export type { Rejected } from './testing/rejections.ts';
export { namespace, secret, pod, node, service, persistentVolumeClaim, event, controllerRevision, configKey } from './testing/coreObjects.ts';
export { rejectedNamespace, rejectedSecret, rejectedPod, rejectedNode, rejectedService, rejectedPersistentVolumeClaim, rejectedEvent, rejectedControllerRevision } from './testing/coreRejections.ts';
export { role, clusterRole, roleBinding, clusterRoleBinding, selfSubjectAccessReview } from './testing/authorizationObjects.ts';
export { rejectedRole, rejectedClusterRole, rejectedRoleBinding, rejectedClusterRoleBinding, rejectedSelfSubjectAccessReview } from './testing/authorizationRejections.ts';
export { simulationCommands, emptyModel, counterexampleScenario, rerunCommands } from './testing/commands.ts';
export type { SimModel, SimReal, SimCommand, BoundTokenRecord } from './testing/commands.ts';
export type { ServiceAccountTokenValidator, ClaimsCheck } from './auth/tokenValidator.ts';
export type { ReadClaims as ServiceAccountTokenClaims } from './auth/tokenClaims.ts';
export { checkInvariants, invariantProblems, eventuallyStable } from './testing/invariants.ts';
export type { CheckInvariantsOptions, StableOptions, StableReport } from './testing/invariants.ts';
export { platformSimMatchers, objectPath } from './testing/matchers.ts';
export type { PlatformSimMatchers, ExpectedCondition, ExpectedUser } from './testing/matchers.ts';
export { withSimulation } from './testing/fixture.ts';
export type { SimulationFixture } from './testing/fixture.ts';
export { checkDeterminism, checkReplay, firstDifference } from './testing/determinism.ts';
export type { DeterminismFc, DeterminismOptions, ReplayOptions, ReplayRun } from './testing/determinism.ts';
export { simulationFetch, simulationBaseUrl } from './testing/fetch.ts';
export type { SimulationFetch, SimulationFetchOptions } from './testing/fetch.ts';
export { simulationKubeConfig, makeSimulationApiClient, simulationHttpLibrary } from './testing/clientNode.ts';
export type { SimulationKubeConfigOptions, ClientNodeModule } from './testing/clientNode.ts';
export { simulationAgent } from './testing/transport/inMemoryAgent.ts';
export { explore } from './testing/explore.ts';
export type { ExploreOptions, ExploreResult } from './testing/explore.ts';
