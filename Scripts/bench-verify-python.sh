#!/usr/bin/env bash
# The peer baseline of `bench verify`: times Apple's official Python library
# (app-store-server-library) verifying and decoding a set of signed transactions.
#
#   Scripts/bench-verify-python.sh JWS_FILE ROOT_DER BUNDLE_ID APP_APPLE_ID
#
# JWS_FILE holds one compact JWS per line; ROOT_DER is the trusted root (DER). The library is
# installed into a throwaway virtual environment in a temporary directory, removed on exit.
# Prints key=value lines: python_library_version, python_verified, python_seconds,
# python_verified_per_second.
set -euo pipefail
if [ "$#" -ne 4 ]; then
  echo "usage: $0 JWS_FILE ROOT_DER BUNDLE_ID APP_APPLE_ID" >&2
  exit 2
fi
workdir=$(mktemp -d)
trap 'rm -rf "$workdir"' EXIT
python3 -m venv "$workdir/venv"
"$workdir/venv/bin/pip" install --quiet --disable-pip-version-check app-store-server-library >&2
"$workdir/venv/bin/python" - "$@" <<'PY'
import sys
import time
from importlib.metadata import version

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

jws_path, root_path, bundle_id, app_apple_id = sys.argv[1:5]
with open(jws_path) as handle:
    signed = [line.strip() for line in handle if line.strip()]
with open(root_path, "rb") as handle:
    root = handle.read()

# Online (OCSP) checks off, as the toolkit's verifier: chain, OIDs, validity at signedDate,
# signature, bundle id and environment are checked for every JWS.
verifier = SignedDataVerifier([root], False, Environment.PRODUCTION, bundle_id, int(app_apple_id))
verifier.verify_and_decode_signed_transaction(signed[0])  # warm-up, and proof that it verifies

start = time.perf_counter()
for jws in signed:
    verifier.verify_and_decode_signed_transaction(jws)
elapsed = time.perf_counter() - start

print(f"python_library_version={version('app-store-server-library')}")
print(f"python_verified={len(signed)}")
print(f"python_seconds={elapsed:.6f}")
print(f"python_verified_per_second={len(signed) / elapsed:.1f}")
PY
