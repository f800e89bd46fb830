"""Python client identity smoke test (k8s.io mode): a token for a service account, reviewed with
the typed AuthenticationV1Api, and a SelfSubjectReview as that account.
Run by test/server/python.test.ts with Debian's python3."""
import json
import sys

from kubernetes import client

url, token, ca_file = sys.argv[1], sys.argv[2], sys.argv[3]


def api(bearer):
    cfg = client.Configuration()
    cfg.host = url
    cfg.api_key = {"authorization": "Bearer " + bearer}
    cfg.ssl_ca_cert = ca_file
    return client.ApiClient(cfg)


admin = api(token)
core = client.CoreV1Api(admin)
core.create_namespaced_service_account("default", {"metadata": {"name": "py-robot"}})
issued = core.create_namespaced_service_account_token("py-robot", "default", {"spec": {"audiences": ["vault"], "expirationSeconds": 600}})
review = client.AuthenticationV1Api(admin).create_token_review({"spec": {"token": issued.status.token, "audiences": ["vault"]}})
default_token = core.create_namespaced_service_account_token("py-robot", "default", {"spec": {}}).status.token
# python3-kubernetes 22 predates the typed SelfSubjectReview API: call the path directly.
me = api(default_token).call_api(
    "/apis/authentication.k8s.io/v1/selfsubjectreviews", "POST", body={}, response_type="object",
    auth_settings=["BearerToken"], header_params={"Content-Type": "application/json", "Accept": "application/json"}, _return_http_data_only=True)
print(json.dumps({
    "authenticated": review.status.authenticated,
    "user": review.status.user.username,
    "audiences": review.status.audiences,
    "whoami": me["status"]["userInfo"]["username"],
}))
