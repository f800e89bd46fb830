"""Python client StatefulSet test (k8s.io mode): create a 2-replica set with the typed AppsV1Api,
read its status until every replica is ready (bounded), then scale it and list its revisions and
pods. Run by test/server/statefulsetClients.test.ts with Debian's python3."""
import json
import sys
import time

from kubernetes import client

url, token, ca_file, namespace = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
cfg = client.Configuration()
cfg.host = url
cfg.api_key = {"authorization": "Bearer " + token}
cfg.ssl_ca_cert = ca_file
api = client.ApiClient(cfg)
apps = client.AppsV1Api(api)
core = client.CoreV1Api(api)

body = client.V1StatefulSet(
    metadata=client.V1ObjectMeta(name="py-db"),
    spec=client.V1StatefulSetSpec(
        replicas=2,
        service_name="py-db",
        selector=client.V1LabelSelector(match_labels={"app": "py-db"}),
        template=client.V1PodTemplateSpec(
            metadata=client.V1ObjectMeta(labels={"app": "py-db"}, annotations={"sim.platform.io/ready-after": "1s"}),
            spec=client.V1PodSpec(containers=[client.V1Container(name="db", image="postgres:16")]),
        ),
    ),
)
created = apps.create_namespaced_stateful_set(namespace, body)

deadline = time.monotonic() + 30
status = apps.read_namespaced_stateful_set_status("py-db", namespace)
while (status.status.ready_replicas or 0) < status.spec.replicas and time.monotonic() < deadline:
    time.sleep(0.2)
    status = apps.read_namespaced_stateful_set_status("py-db", namespace)

scale = apps.patch_namespaced_stateful_set_scale("py-db", namespace, {"spec": {"replicas": 3}})
deadline = time.monotonic() + 30
grown = apps.read_namespaced_stateful_set("py-db", namespace)
while (grown.status.ready_replicas or 0) < 3 and time.monotonic() < deadline:
    time.sleep(0.2)
    grown = apps.read_namespaced_stateful_set("py-db", namespace)

revisions = apps.list_namespaced_controller_revision(namespace, label_selector="app=py-db").items
pods = core.list_namespaced_pod(namespace, label_selector="app=py-db").items
print(json.dumps({
    "generation": created.metadata.generation,
    "ready": status.status.ready_replicas,
    "revisionsAgree": status.status.current_revision == status.status.update_revision,
    "scaleSpec": scale.spec.replicas,
    "grownReady": grown.status.ready_replicas,
    "revisions": [[r.metadata.name == status.status.update_revision, r.revision] for r in revisions],
    "pods": sorted([p.metadata.name, p.spec.hostname, p.spec.subdomain, p.metadata.labels["statefulset.kubernetes.io/pod-name"], p.status.phase] for p in pods),
}))
