/**
 * Event (core/v1 `events`) schema facts. The core/v1 Event keeps both the old fields
 * (source, firstTimestamp, lastTimestamp, count) and the newer ones (eventTime, series, action,
 * related, reportingComponent, reportingInstance) that events.k8s.io/v1 writes through.
 */
import { s } from '../../api/schema.ts';
import { objectMetaSchema } from '../../api/meta.ts';
import { objectReferenceSchema } from '../service-account/schema.ts';

export const eventSchema = s.struct('Event', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  involvedObject: objectReferenceSchema,
  reason: s.string(),
  message: s.string(),
  source: s.struct('EventSource', { component: s.string(), host: s.string() }),
  firstTimestamp: s.time(),
  lastTimestamp: s.time(),
  count: s.int32(),
  type: s.string(),
  eventTime: { type: 'string', format: 'date-time', goType: 'MicroTime' },
  series: s.struct('EventSeries', { count: s.int32(), lastObservedTime: { type: 'string', format: 'date-time', goType: 'MicroTime' } }),
  action: s.string(),
  related: objectReferenceSchema,
  reportingComponent: s.string(),
  reportingInstance: s.string(),
});
