/**
 * The controllers of a simulation, in the fixed order settle runs them: the order is part of
 * determinism (a seeded schedule may draw another, replayably).
 */
import type { Controller } from '../controllers/types.ts';
import { garbageCollector } from '../controllers/garbage-collector/garbageCollector.ts';
import { namespaceController } from '../controllers/namespace/namespaceController.ts';
import { defaultServiceAccountController } from '../controllers/service-account/defaultServiceAccount.ts';
import { scheduler } from '../controllers/node-agent/scheduler.ts';
import { nodeAgent } from '../controllers/node-agent/nodeAgent.ts';
import { nodeLifecycleController } from '../controllers/node-lifecycle/nodeLifecycle.ts';
import { taintEvictionController } from '../controllers/node-lifecycle/taintEviction.ts';
import { csrApprover } from '../controllers/certificates/approver.ts';
import { csrSigner } from '../controllers/certificates/signer.ts';
import { csrCleaner } from '../controllers/certificates/cleaner.ts';
import { statefulSetController } from '../controllers/stateful-set/statefulSetController.ts';

export const builtInControllers: readonly Controller[] = [namespaceController, defaultServiceAccountController, statefulSetController, scheduler, nodeAgent, nodeLifecycleController, taintEvictionController, csrApprover, csrSigner, csrCleaner, garbageCollector];
