"""Judges what `receipt-migrate notifications replay` sent, with Apple's own code.

Run by NotificationReplayEndToEndTests (Swift) with the Python of .venv-conformance/, where
Scripts/test installs Apple's app-store-server-library. argv[1] is a JSON file the test wrote:

  world_path     the simulated world (world.json): its bundle id and Apple id
  root_pem_path  the root the simulator signs under (world/signing/root.pem)
  requests       every request the test's receiver got, in order: method, path, content_type, body

Each body must be JSON (Python's json module) with exactly one member, signedPayload, whose
value Apple's SignedDataVerifier.verify_and_decode_notification accepts (online checks off, the
simulator's root trusted), sent as POST with Content-Type application/json. Prints one JSON
object: the notificationUUID and environment of each request in order, and the failures.
"""

import json
import sys

from cryptography import x509
from cryptography.hazmat.primitives import serialization

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException


def main():
    with open(sys.argv[1]) as handle:
        config = json.load(handle)
    with open(config["world_path"]) as handle:
        world = json.load(handle)
    with open(config["root_pem_path"], "rb") as handle:
        root = x509.load_pem_x509_certificate(handle.read()).public_bytes(serialization.Encoding.DER)
    verifiers = {
        name: SignedDataVerifier([root], False, environment, world["bundle_id"], world["app_apple_id"])
        for name, environment in (("Production", Environment.PRODUCTION), ("Sandbox", Environment.SANDBOX))
    }
    notifications = []
    failures = []
    for index, request in enumerate(config["requests"]):
        where = f"request {index + 1}"
        if request["method"] != "POST":
            failures.append(f"{where}: method {request['method']}")
        if request["content_type"] != "application/json":
            failures.append(f"{where}: Content-Type {request['content_type']!r}")
        try:
            body = json.loads(request["body"])
        except ValueError as error:
            failures.append(f"{where}: the body is not JSON: {error}")
            notifications.append(None)
            continue
        if not isinstance(body, dict) or set(body.keys()) != {"signedPayload"}:
            failures.append(f"{where}: the body's members are {sorted(body) if isinstance(body, dict) else body!r}")
            notifications.append(None)
            continue
        verified = None
        reasons = []
        for name, verifier in verifiers.items():
            try:
                payload = verifier.verify_and_decode_notification(body["signedPayload"])
                verified = {"uuid": payload.notificationUUID, "environment": name}
                break
            except VerificationException as error:
                reasons.append(f"{name}: {error.status}")
        if verified is None:
            failures.append(f"{where}: Apple's verifier refused the payload ({'; '.join(reasons)})")
        notifications.append(verified)
    print(json.dumps({"notifications": notifications, "failures": failures}))


main()
