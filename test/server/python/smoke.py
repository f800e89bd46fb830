"""Python client smoke test: run by test/server/python.test.ts with Debian's python3."""
import json
import sys

from kubernetes import client

url, token, ca_file = sys.argv[1], sys.argv[2], sys.argv[3]
cfg = client.Configuration()
cfg.host = url
cfg.api_key = {"authorization": "Bearer " + token}
cfg.ssl_ca_cert = ca_file
core = client.CoreV1Api(client.ApiClient(cfg))
created = core.create_namespaced_service_account("default", {"metadata": {"name": "from-python"}})
read = core.read_namespaced_service_account("from-python", "default")
names = [sa.metadata.name for sa in core.list_namespaced_service_account("default").items]
try:
    core.read_namespaced_service_account("ghost", "default")
    missing = None
except client.exceptions.ApiException as e:
    missing = e.status
print(json.dumps({"uid": created.metadata.uid == read.metadata.uid, "names": names, "missing": missing}))
