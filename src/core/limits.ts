/**
 * Every bound in one place (TigerBeetle style: a limit on everything that loops or grows).
 * Names carry the qualifier last. Exceeding a bound on user input is a validation error;
 * exceeding one inside the simulation is an assertion failure (a bug to report).
 */
export const limits = {
  /** Largest request body the API accepts, as kube-apiserver (3 MiB). */
  requestBodyBytesMax: 3 * 1024 * 1024,
  /**
   * Largest body of `PUT /sim/v1/snapshot` over HTTP, the one request exempt from
   * requestBodyBytesMax: a whole world, about twice the 132 MB snapshot of 100,000 ConfigMaps.
   * Kept well under the longest string V8 makes (about 512 MiB), which the body becomes before it
   * is parsed, so parsing it beside the current world stays within a default heap.
   */
  snapshotBodyBytesMax: 256 * 1024 * 1024,
  /** JSON patch operations per request, as kube-apiserver. */
  jsonPatchOperationsMax: 10_000,
  /** Total size of annotations (keys + values). */
  annotationsBytesMax: 262_144,
  /** generateName attempts before giving up with AlreadyExists. */
  generateNameAttemptsMax: 8,
  /** Characters of generateName kept before the random suffix. */
  generateNamePrefixMax: 58,
  /** Field manager name length. */
  fieldManagerBytesMax: 128,
  /** Update-operation managers kept before the oldest merge into `ancient-changes`. */
  updateManagersMax: 10,
  /** Strict-decoding problems reported per request. */
  decodeProblemsMax: 100,
  /** Controller rounds one `settle` may run before it reports a livelock. */
  settleRoundsMax: 10_000,
  /** Wake-ups one `advance` may visit before it reports a livelock. */
  advanceWakeupsMax: 1_000_000,
  /** Watch log entries retained besides compaction (oldest dropped first). */
  watchLogEntriesMax: 200_000,
  /** Nesting depth of request bodies and patches. */
  jsonDepthMax: 100,
  /** Total warning characters per response before each is truncated. */
  warningsCharsMax: 4096,
  warningCharsTruncated: 256,
  /** Intermediate certificates followed when verifying a client certificate chain. */
  certificateChainDepthMax: 5,
  /** Crypto facts (signatures, verifications, parsed certificates) remembered across steps. */
  cryptoFactsCachedMax: 10_000,
  /** Trace events kept by a simulation (oldest dropped first). */
  traceEventsMax: 100_000,
  /** Passes of one step that may each discover crypto facts they need. */
  factPassesMax: 8,
  /** Certificates read from a TLS peer's chain at the HTTP edge (leaf first). */
  peerCertificatesMax: 8,
  /** Decoded service-account tokens remembered across requests (oldest dropped first). */
  decodedTokensCachedMax: 1024,
  /** Decoded size of a Secret's data, as kube-apiserver (1 MiB). */
  secretDataBytesMax: 1024 * 1024,
  /** Size of a ClusterTrustBundle's `spec.trustBundle`, as kube-apiserver (1 MiB). */
  trustBundleBytesMax: 1024 * 1024,
  /** Core/v1 Event `reportingInstance`, `action` and `reason` length (UTF-8 bytes). */
  eventReportingInstanceBytesMax: 128,
  eventActionBytesMax: 128,
  eventReasonBytesMax: 128,
  /** Core/v1 Event `message` length (UTF-8 bytes; upstream's note limit). */
  eventNoteBytesMax: 1024,
  /**
   * Virtual time's range: an instant must stay writable as an RFC 3339 timestamp (four-digit
   * years), so time starts no earlier than 0000-01-01T00:00:00Z and never passes
   * 9999-12-31T23:59:59Z. Checked on `startTime`, on every advance and on a snapshot's `now`.
   */
  instantMin: -62_167_219_200_000,
  instantMax: 253_402_300_799_000,
  /**
   * A stored object's size, as etcd's default `--max-request-bytes` (1.5 MiB), measured on the
   * object's JSON (etcd holds built-in kinds as protobuf, a little smaller): a write over it is
   * refused with etcd's `etcdserver: request is too large`.
   */
  storedObjectBytesMax: 1_572_864,
  /**
   * The largest revision a world taken over by a server may carry (PUT /sim/v1/snapshot, a state
   * file): 2^52, which leaves 2^52 writes before resourceVersions run out of exact integers
   * (142 years at a million writes a second).
   */
  revisionMax: 2 ** 52,
  /** Objects stored of one kind (all namespaces): a create beyond it is refused like an exceeded quota. */
  objectsPerKindMax: 200_000,
  /**
   * Pods one StatefulSet's syncs create or delete in one second of virtual time (a member's claims
   * go with its pod); a set with more to do gets its next batch when the next second starts
   * (controllers/stateful-set/pacing.ts). Far above what the real controller's client allows (20
   * requests a second, bursts of 30), and enough that no request waits on a huge set.
   */
  statefulSetPodWritesPerSecondMax: 500,
  /** Watches one HTTP client (remote address) may hold open, and all clients together. */
  watchesPerClientMax: 100,
  watchesTotalMax: 1000,
  /** Request line and headers over HTTP, as Go's net/http default that kube-apiserver serves with (1 MiB). */
  requestHeaderBytesMax: 1_048_576,
  /**
   * Bytes a watch response may have queued for a client that does not read before the watch is
   * cut off (kube-apiserver drops a watcher whose buffer is full; the client lists and watches
   * again): several of the largest events (storedObjectBytesMax), far more than a reading client queues.
   */
  watchQueuedBytesMax: 8 * 1024 * 1024,
  /**
   * A state file's journal is folded into a new snapshot once it is this large and at least as
   * large as the snapshot: a write then costs its change plus a bounded share of a snapshot.
   */
  stateJournalCompactionBytesMin: 8 * 1024 * 1024,
} as const;
