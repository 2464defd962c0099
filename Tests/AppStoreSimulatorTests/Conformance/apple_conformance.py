#!/usr/bin/env python3
"""Drives the App Store simulator with Apple's official Python library, unmodified.

    apple_conformance.py CONFIG_JSON RESULT_JSON

CONFIG_JSON is written by AppleConformanceTests (Swift): the simulator's base URLs, its root
certificate and API key, the world.json it serves, the subscription statuses the world's truth
gives, some order ids, and a list of signed values in Apple's shapes. Every request goes through
Apple's AppStoreServerAPIClient and every signed value through Apple's SignedDataVerifier (online
checks off, the simulator's root trusted). The only thing set on the client is its base URL (a
private attribute, `_base_url`, since the library knows only Apple's hosts); no library code is
replaced.

RESULT_JSON receives the failures found (an empty list when the simulator matched), counts, and
Apple's verdict on each signed value of the list, which the Swift test compares with this
project's verifier. The script exits 0 whenever it ran to the end; the Swift test judges.
"""

import base64
import json
import sys
import time
import uuid
from importlib.metadata import version

import requests
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from appstoreserverlibrary.api_client import (
    APIException,
    AppStoreServerAPIClient,
    GetTransactionHistoryVersion,
)
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.InAppOwnershipType import InAppOwnershipType
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
from appstoreserverlibrary.models.OrderLookupStatus import OrderLookupStatus
from appstoreserverlibrary.models.SendAttemptResult import SendAttemptResult
from appstoreserverlibrary.models.Status import Status
from appstoreserverlibrary.models.Subtype import Subtype
from appstoreserverlibrary.models.TransactionHistoryRequest import (
    Order,
    ProductType,
    TransactionHistoryRequest,
)
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException

KINDS = {
    "auto_renewable": ("Auto-Renewable Subscription", ProductType.AUTO_RENEWABLE),
    "non_consumable": ("Non-Consumable", ProductType.NON_CONSUMABLE),
    "consumable": ("Consumable", ProductType.CONSUMABLE),
    "non_renewing": ("Non-Renewing Subscription", ProductType.NON_RENEWABLE),
}


class Run:
    def __init__(self, config):
        self.config = config
        self.failures = []
        self.checks = 0
        self.requests = 0
        self.verified = {}
        self.endpoints = set()
        with open(config["world_path"]) as handle:
            self.world = json.load(handle)
        self.now = self.world["now_ms"]
        self.bundle_id = self.world["bundle_id"]
        self.app_apple_id = self.world["app_apple_id"]
        with open(config["root_pem_path"], "rb") as handle:
            root = x509.load_pem_x509_certificate(handle.read())
        self.root_der = root.public_bytes(serialization.Encoding.DER)
        with open(config["key_path"], "rb") as handle:
            self.key = handle.read()
        self.clients = {
            "Production": self.client(Environment.PRODUCTION, config["production_url"]),
            "Sandbox": self.client(Environment.SANDBOX, config["sandbox_url"]),
        }
        self.verifiers = {
            "Production": SignedDataVerifier(
                [self.root_der], False, Environment.PRODUCTION, self.bundle_id, self.app_apple_id),
            "Sandbox": SignedDataVerifier(
                [self.root_der], False, Environment.SANDBOX, self.bundle_id, self.app_apple_id),
        }
        self.transactions = {}
        self.customer_of = {}
        for customer in self.world["customers"]:
            for transaction in customer["transactions"]:
                self.transactions[transaction["transaction_id"]] = transaction
                self.customer_of[transaction["transaction_id"]] = customer
                self.customer_of[transaction["original_transaction_id"]] = customer
            self.customer_of[customer["app_transaction_id"]] = customer

    def client(self, environment, base_url, key=None, key_id=None):
        client = AppStoreServerAPIClient(
            key or self.key, key_id or self.config["key_id"], self.config["issuer_id"],
            self.bundle_id, environment)
        client._base_url = base_url.rstrip("/")
        return client

    # MARK: - Bookkeeping

    def check(self, condition, where, detail=""):
        self.checks += 1
        if not condition:
            self.failures.append(f"{where}: {detail}")
        return condition

    def call(self, endpoint, function, *arguments, **keywords):
        self.requests += 1
        self.endpoints.add(endpoint)
        return function(*arguments, **keywords)

    def verify(self, kind, environment, jws):
        cached = self.verified.get(jws)
        if cached is not None:
            return cached
        verifier = self.verifiers[environment]
        method = {
            "transaction": verifier.verify_and_decode_signed_transaction,
            "renewal": verifier.verify_and_decode_renewal_info,
            "app": verifier.verify_and_decode_app_transaction,
            "notification": verifier.verify_and_decode_notification,
        }[kind]
        try:
            payload = method(jws)
        except VerificationException as error:
            self.failures.append(
                f"{kind} in {environment} rejected by Apple's verifier: {error.status.name} "
                f"({error.__cause__!r})")
            return None
        self.verified[jws] = payload
        return payload

    @staticmethod
    def raw_payload(jws):
        segment = jws.split(".")[1]
        return json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))

    # MARK: - The world

    def revocation(self, transaction):
        revocation = transaction.get("revocation")
        if revocation and revocation["date_ms"] <= self.now:
            return revocation
        return None

    def compare_transaction(self, payload, environment, where, at_now=True):
        world = self.transactions.get(payload.transactionId)
        if not self.check(world is not None, where, f"transaction {payload.transactionId} is not in world.json"):
            return
        customer = self.customer_of[payload.transactionId]
        where = f"{where} transaction {payload.transactionId}"
        offer = world.get("offer") or {}
        expected = {
            "originalTransactionId": world["original_transaction_id"],
            "webOrderLineItemId": world["web_order_line_item_id"],
            "productId": world["product_id"],
            "subscriptionGroupIdentifier": world["group"],
            "purchaseDate": world["purchase_ms"],
            "originalPurchaseDate": world["original_purchase_ms"],
            "expiresDate": world["expires_ms"],
            "quantity": world["quantity"],
            "rawType": KINDS[world["kind"]][0],
            "rawInAppOwnershipType": world["ownership"],
            "rawTransactionReason": world["reason"],
            "price": world["price_milli"],
            "currency": "USD",
            "bundleId": self.bundle_id,
            "rawEnvironment": environment,
            "appTransactionId": customer["app_transaction_id"],
            "rawOfferType": offer.get("type"),
            "offerIdentifier": offer.get("identifier"),
            "rawOfferDiscountType": offer.get("discount_type"),
            "offerPeriod": offer.get("period"),
        }
        if at_now:
            revocation = self.revocation(world)
            percentage = None
            if revocation and revocation["kind"] == "REFUND_FULL":
                percentage = 100000
            elif revocation and revocation["kind"] == "REFUND_PRORATED":
                percentage = revocation["percentage_milli"]
            expected.update({
                "revocationDate": revocation["date_ms"] if revocation else None,
                "rawRevocationType": revocation["kind"] if revocation else None,
                "rawRevocationReason": revocation["reason"] if revocation else None,
                "revocationPercentage": percentage,
                "isUpgraded": True if world["upgraded_ms"] is not None and world["upgraded_ms"] <= self.now else None,
                "appAccountToken": world["app_account_token"],
            })
        for member, value in expected.items():
            found = getattr(payload, member)
            self.check(found == value, where, f"{member} is {found!r}, world.json says {value!r}")
        self.check(payload.signedDate is not None, where, "no signedDate")

    # MARK: - History

    def walk(self, environment, identifier, request, version):
        client = self.clients[environment]
        revision = None
        found = []
        pages = 0
        while True:
            response = self.call(
                "history " + version.value, client.get_transaction_history, identifier, revision,
                request, version)
            pages += 1
            self.check(response.bundleId == self.bundle_id, "history", "bundleId")
            self.check(response.rawEnvironment == environment, "history", "environment")
            for jws in response.signedTransactions or []:
                payload = self.verify("transaction", environment, jws)
                if payload is not None:
                    found.append(payload)
            if not response.hasMore:
                return found, pages
            self.check(response.revision, "history", "hasMore without a revision")
            revision = response.revision

    def expected_history(self, customer, version, keep=lambda transaction: True):
        expected = []
        for transaction in customer["transactions"]:
            if transaction["purchase_ms"] > self.now or not keep(transaction):
                continue
            if version == GetTransactionHistoryVersion.V1 and transaction["kind"] == "consumable" \
                    and self.revocation(transaction) is None:
                continue  # v1 leaves out finished consumables unless revoked
            expected.append(transaction["transaction_id"])
        return sorted(expected)

    def history(self, customer):
        environment = customer["environment"]
        identifier = customer["app_transaction_id"]
        transactions = [t for t in customer["transactions"] if t["purchase_ms"] <= self.now]
        purchases = sorted(t["purchase_ms"] for t in transactions)
        middle = purchases[len(purchases) // 2] if purchases else self.now
        products = sorted({t["product_id"] for t in transactions})[:1] or ["com.example.none"]
        groups = sorted({t["group"] for t in transactions if t["group"]})[:1] or ["00000000"]
        filters = [
            ("no filter", TransactionHistoryRequest(), lambda t: True),
            ("descending", TransactionHistoryRequest(sort=Order.DESCENDING), lambda t: True),
            ("ascending", TransactionHistoryRequest(sort=Order.ASCENDING), lambda t: True),
            ("startDate", TransactionHistoryRequest(startDate=middle), lambda t: t["purchase_ms"] >= middle),
            ("endDate", TransactionHistoryRequest(endDate=middle), lambda t: t["purchase_ms"] < middle),
            ("productId", TransactionHistoryRequest(productIds=products), lambda t: t["product_id"] in products),
            ("subscriptionGroupIdentifier", TransactionHistoryRequest(subscriptionGroupIdentifiers=groups),
             lambda t: t["group"] in groups),
            ("revoked=True", TransactionHistoryRequest(revoked=True), lambda t: self.revocation(t) is not None),
            ("revoked=False", TransactionHistoryRequest(revoked=False), lambda t: self.revocation(t) is None),
        ]
        for kind, (_, product_type) in KINDS.items():
            filters.append((f"productType={product_type.value}",
                            TransactionHistoryRequest(productTypes=[product_type]),
                            lambda t, kind=kind: t["kind"] == kind))
        for ownership in ("PURCHASED", "FAMILY_SHARED"):
            filters.append((f"inAppOwnershipType={ownership}",
                            TransactionHistoryRequest(inAppOwnershipType=InAppOwnershipType(ownership)),
                            lambda t, ownership=ownership: t["ownership"] == ownership))
        for version in (GetTransactionHistoryVersion.V1, GetTransactionHistoryVersion.V2):
            for name, request, keep in filters:
                where = f"history {version.value} {name} of {identifier}"
                found, _ = self.walk(environment, identifier, request, version)
                ids = sorted(p.transactionId for p in found)
                expected = self.expected_history(customer, version, keep)
                self.check(ids == expected, where, f"returned {ids}, world.json gives {expected}")
                if name == "no filter":
                    for payload in found:
                        self.compare_transaction(payload, environment, where)

    # MARK: - Other endpoints of one customer

    def statuses(self, customer):
        environment = customer["environment"]
        identifier = customer["app_transaction_id"]
        client = self.clients[environment]
        response = self.call("statuses", client.get_all_subscription_statuses, identifier)
        where = f"statuses of {identifier}"
        self.check(response.rawEnvironment == environment, where, "environment")
        entries = []
        for group in response.data or []:
            for item in group.lastTransactions or []:
                transaction = self.verify("transaction", environment, item.signedTransactionInfo)
                renewal = self.verify("renewal", environment, item.signedRenewalInfo)
                if transaction is None or renewal is None:
                    continue
                entries.append((item.originalTransactionId, item.rawStatus))
                self.compare_transaction(transaction, environment, where)
                expected = self.config["statuses"].get(item.originalTransactionId)
                self.check(item.rawStatus == expected, where,
                           f"{item.originalTransactionId} has status {item.rawStatus}, the world's truth {expected}")
                self.check(renewal.originalTransactionId == item.originalTransactionId, where, "renewal id")
                self.check(renewal.renewalDate is not None, where,
                           f"renewal info of {item.originalTransactionId} has no renewalDate")
                self.check(renewal.renewalDate == transaction.expiresDate, where,
                           f"renewalDate {renewal.renewalDate} is not the latest expiry {transaction.expiresDate}")
                self.check(renewal.rawEnvironment == environment, where, "renewal environment")
        expected_originals = sorted(o for o, s in self.config["statuses"].items()
                                    if self.customer_of.get(o) is customer)
        self.check(sorted(o for o, _ in entries) == expected_originals, where,
                   f"entries {sorted(o for o, _ in entries)}, world {expected_originals}")
        for status in Status:
            filtered = self.call("statuses", client.get_all_subscription_statuses, identifier, [status])
            found = sorted(item.originalTransactionId for group in filtered.data or []
                           for item in group.lastTransactions or [])
            wanted = sorted(o for o, s in entries if s == status.value)
            self.check(found == wanted, f"{where} status={status.value}", f"{found} != {wanted}")

    def transaction_info(self, customer):
        environment = customer["environment"]
        client = self.clients[environment]
        for transaction in customer["transactions"]:
            if transaction["purchase_ms"] > self.now:
                continue
            response = self.call("transaction", client.get_transaction_info, transaction["transaction_id"])
            payload = self.verify("transaction", environment, response.signedTransactionInfo)
            if payload is not None:
                self.check(payload.transactionId == transaction["transaction_id"], "transaction info", "id")
                self.compare_transaction(payload, environment, "transaction info")

    def refund_history(self, customer):
        environment = customer["environment"]
        identifier = customer["app_transaction_id"]
        client = self.clients[environment]
        revision = None
        found = []
        while True:
            response = self.call("refund", client.get_refund_history, identifier, revision)
            for jws in response.signedTransactions or []:
                payload = self.verify("transaction", environment, jws)
                if payload is not None:
                    found.append(payload)
                    self.compare_transaction(payload, environment, "refund history")
            if not response.hasMore:
                break
            revision = response.revision
        refunds = sorted(
            (self.revocation(t)["date_ms"], t["transaction_id"]) for t in customer["transactions"]
            if self.revocation(t) and self.revocation(t)["kind"] in ("REFUND_FULL", "REFUND_PRORATED"))
        self.check([p.transactionId for p in found] == [i for _, i in refunds],
                   f"refund history of {identifier}", f"{[p.transactionId for p in found]} != {refunds}")

    def app_transaction(self, customer):
        environment = customer["environment"]
        identifier = customer["app_transaction_id"]
        response = self.call("app transaction", self.clients[environment].get_app_transaction_info, identifier)
        jws = response.signedAppTransactionInfo
        payload = self.verify("app", environment, jws)
        where = f"app transaction of {identifier}"
        if payload is None:
            return
        self.check(payload.appTransactionId == identifier, where, "appTransactionId")
        self.check(payload.originalPurchaseDate == customer["first_seen_ms"], where, "originalPurchaseDate")
        self.check(payload.rawReceiptType == environment, where, "receiptType")
        self.check(payload.bundleId == self.bundle_id, where, "bundleId")
        self.check(payload.receiptCreationDate is not None, where, "no receiptCreationDate")
        self.check("signedDate" not in self.raw_payload(jws), where, "carries a signedDate")

    def order_lookup(self):
        client = self.clients["Production"]
        for order_id, transaction_id in self.config["orders"].items():
            response = self.call("order", client.look_up_order_id, order_id)
            self.check(response.status == OrderLookupStatus.VALID, f"order {order_id}", f"status {response.rawStatus}")
            ids = [p.transactionId for p in
                   (self.verify("transaction", "Production", jws) for jws in response.signedTransactions or [])
                   if p is not None]
            self.check(ids == [transaction_id], f"order {order_id}", f"{ids} != [{transaction_id}]")
            for jws in response.signedTransactions or []:
                payload = self.verify("transaction", "Production", jws)
                if payload is not None:
                    self.compare_transaction(payload, "Production", f"order {order_id}")
        response = self.call("order", client.look_up_order_id, "MZZZZZZZZZZZZZ")
        self.check(response.status == OrderLookupStatus.INVALID, "unknown order", f"status {response.rawStatus}")

    # MARK: - Notification history

    def notifications(self, environment, request, where):
        client = self.clients[environment]
        token = None
        items = []
        while True:
            response = self.call("notifications", client.get_notification_history, token, request)
            items += response.notificationHistory or []
            if not response.hasMore:
                break
            self.check(response.paginationToken, where, "hasMore without a paginationToken")
            token = response.paginationToken
        decoded = []
        for item in items:
            payload = self.verify("notification", environment, item.signedPayload)
            if payload is None:
                continue
            decoded.append((item, payload))
            if payload.data and payload.data.signedTransactionInfo:
                transaction = self.verify("transaction", environment, payload.data.signedTransactionInfo)
                if transaction is not None:
                    self.compare_transaction(transaction, environment, where, at_now=False)
            if payload.data and payload.data.signedRenewalInfo:
                renewal = self.verify("renewal", environment, payload.data.signedRenewalInfo)
                if renewal is not None:
                    self.check(renewal.originalTransactionId in self.customer_of, where, "renewal of an unknown purchase")
        return decoded

    def notification_history(self):
        for environment, days in (("Production", 179), ("Sandbox", 29)):
            start = self.now - days * 86_400_000
            everything = self.notifications(
                environment, NotificationHistoryRequest(startDate=start, endDate=self.now), f"notifications {environment}")
            self.check(len(everything) > 0, f"notifications {environment}", "none in the window")
            for _, payload in everything:
                self.check(start <= payload.signedDate <= self.now, f"notifications {environment}", "signedDate outside the window")
            kinds = sorted({(p.rawNotificationType, p.rawSubtype) for _, p in everything}, key=str)
            for raw_type in sorted({t for t, _ in kinds}):
                found = self.notifications(environment, NotificationHistoryRequest(
                    startDate=start, endDate=self.now, notificationType=NotificationTypeV2(raw_type)),
                    f"notifications {environment} type {raw_type}")
                wanted = sum(1 for _, p in everything if p.rawNotificationType == raw_type)
                self.check(len(found) == wanted and all(p.rawNotificationType == raw_type for _, p in found),
                           f"notifications {environment} type {raw_type}", f"{len(found)} != {wanted}")
            for raw_type, raw_subtype in kinds:
                if raw_subtype is None:
                    continue
                found = self.notifications(environment, NotificationHistoryRequest(
                    startDate=start, endDate=self.now, notificationType=NotificationTypeV2(raw_type),
                    notificationSubtype=Subtype(raw_subtype)), f"notifications {environment} {raw_type}/{raw_subtype}")
                wanted = sum(1 for _, p in everything if (p.rawNotificationType, p.rawSubtype) == (raw_type, raw_subtype))
                self.check(len(found) == wanted, f"notifications {environment} {raw_type}/{raw_subtype}", f"{len(found)} != {wanted}")
            failed = self.notifications(environment, NotificationHistoryRequest(
                startDate=start, endDate=self.now, onlyFailures=True), f"notifications {environment} onlyFailures")
            for item, _ in failed:
                self.check(all(a.sendAttemptResult != SendAttemptResult.SUCCESS for a in item.sendAttempts or []),
                           f"notifications {environment} onlyFailures", "a delivered notification")
            wanted = sum(1 for item, _ in everything
                         if all(a.sendAttemptResult != SendAttemptResult.SUCCESS for a in item.sendAttempts or []))
            self.check(len(failed) == wanted, f"notifications {environment} onlyFailures", f"{len(failed)} != {wanted}")
            about = [p for _, p in everything if p.data and p.data.signedTransactionInfo][:3]
            for payload in about:
                transaction = self.verified[payload.data.signedTransactionInfo]
                customer = self.customer_of[transaction.transactionId]
                found = self.notifications(environment, NotificationHistoryRequest(
                    startDate=start, endDate=self.now, transactionId=transaction.transactionId),
                    f"notifications {environment} transactionId")
                ids = {t["transaction_id"] for t in customer["transactions"]}
                self.check(found and all(self.verified[p.data.signedTransactionInfo].transactionId in ids
                                         for _, p in found if p.data and p.data.signedTransactionInfo),
                           f"notifications {environment} transactionId {transaction.transactionId}",
                           "a notification of another customer")

    # MARK: - Test notifications

    def test_notifications(self):
        for environment in ("Production", "Sandbox"):
            where = f"test notification {environment}"
            client = self.clients[environment]
            sent = self.call("test notification", client.request_test_notification)
            token = sent.testNotificationToken
            self.check(bool(token), where, "no testNotificationToken")
            status = self.call("test notification status", client.get_test_notification_status, token)
            payload = self.verify("notification", environment, status.signedPayload)
            self.check(payload is not None and payload.rawNotificationType == "TEST", where,
                       "the status does not carry a TEST notification")
            self.check(any(a.sendAttemptResult == SendAttemptResult.SUCCESS for a in status.sendAttempts or []),
                       where, "not delivered")
            if payload is None:
                continue
            listed = self.notifications(environment, NotificationHistoryRequest(
                startDate=self.now - 3_600_000, endDate=self.now + 1, notificationType=NotificationTypeV2.TEST),
                f"{where} in the history")
            self.check(any(p.notificationUUID == payload.notificationUUID for _, p in listed), where,
                       "the TEST notification is not in the notification history")
        # The limited server is configured without a notification URL in production.
        limited = self.client(Environment.PRODUCTION, self.config["limited_url"])
        self.expect_error("test notification without a URL", 404, 4040007, limited.request_test_notification)
        self.expect_error("unknown test notification token", 404, 4040008,
                          self.clients["Production"].get_test_notification_status,
                          "00000000-0000-0000-0000-000000000000_0")

    # MARK: - Set app account token, errors

    def production_originals(self, keep):
        """Original purchases (transaction id equal to the original id) of known production
        customers that pass `keep`, as (customer, transaction) pairs."""
        return [(c, t) for c in self.world["customers"] if c["environment"] == "Production" and not c["forgotten"]
                for t in c["transactions"] if t["transaction_id"] == t["original_transaction_id"]
                and t["purchase_ms"] <= self.now and keep(t)]

    def set_app_account_token(self):
        client = self.clients["Production"]
        for customer in self.world["customers"]:
            if customer["environment"] != "Production" or customer["forgotten"]:
                continue
            periods = {}
            for t in customer["transactions"]:
                if t["kind"] == "auto_renewable" and t["ownership"] == "PURCHASED" and t["purchase_ms"] <= self.now:
                    periods.setdefault(t["original_transaction_id"], []).append(t)
            chosen = next((p for p in periods.values() if len(p) >= 2), None)
            if chosen:
                break
        if not self.check(chosen is not None, "set app account token", "no subscription with two periods"):
            return
        chosen.sort(key=lambda t: t["purchase_ms"])
        original, latest = chosen[0]["transaction_id"], chosen[-1]["transaction_id"]
        token = str(uuid.uuid4())
        self.call("app account token", client.set_app_account_token, original,
                  UpdateAppAccountTokenRequest(appAccountToken=token))
        # Apple documents the token on the subscription's current renewal transaction and the
        # renewals after it, never on past transactions, and in the renewal information.
        after = self.verify("transaction", "Production",
                            self.call("transaction", client.get_transaction_info, latest).signedTransactionInfo)
        self.check(after is not None and after.appAccountToken == token, "set app account token",
                   "the latest transaction does not carry the token")
        for earlier_transaction in chosen[:-1]:
            earlier = self.verify("transaction", "Production", self.call(
                "transaction", client.get_transaction_info, earlier_transaction["transaction_id"]).signedTransactionInfo)
            self.check(earlier is not None and earlier.appAccountToken == earlier_transaction["app_account_token"],
                       "set app account token", f"the past transaction {earlier_transaction['transaction_id']} was rewritten")
        statuses = self.call("statuses", client.get_all_subscription_statuses, original)
        entry = next((item for group in statuses.data or [] for item in group.lastTransactions or []
                      if item.originalTransactionId == original), None)
        if self.check(entry is not None, "set app account token", "no status of the subscription"):
            renewal = self.verify("renewal", "Production", entry.signedRenewalInfo)
            current = self.verify("transaction", "Production", entry.signedTransactionInfo)
            self.check(renewal is not None and renewal.appAccountToken == token, "set app account token",
                       "the renewal information does not carry the token")
            self.check(current is not None and current.appAccountToken == token, "set app account token",
                       "the status's latest transaction does not carry the token")
        customer = self.customer_of[original]
        found, _ = self.walk("Production", customer["app_transaction_id"], TransactionHistoryRequest(),
                             GetTransactionHistoryVersion.V2)
        carrying = sorted(p.transactionId for p in found if p.appAccountToken == token)
        self.check(carrying == [latest], "set app account token",
                   f"in the history {carrying} carry the token, Apple documents only {latest}")
        # Every product type, one-time purchases included.
        for kind in ("non_consumable", "consumable", "non_renewing"):
            one_time = self.production_originals(
                lambda t, kind=kind: t["kind"] == kind and t["ownership"] == "PURCHASED")
            if not one_time:
                continue
            _, purchase = one_time[0]
            other = str(uuid.uuid4())
            self.call("app account token", client.set_app_account_token, purchase["transaction_id"],
                      UpdateAppAccountTokenRequest(appAccountToken=other))
            payload = self.verify("transaction", "Production", self.call(
                "transaction", client.get_transaction_info, purchase["transaction_id"]).signedTransactionInfo)
            self.check(payload is not None and payload.appAccountToken == other, f"set app account token on a {kind}",
                       "the purchase does not carry the token")
        # The errors Apple documents for the endpoint, by code and by the name Apple's library
        # gives each (4000227 for an ASSIGNED purchase is newer than the library: code only).
        shared = self.production_originals(lambda t: t["ownership"] == "FAMILY_SHARED")
        assigned = self.production_originals(lambda t: t["ownership"] == "ASSIGNED")
        self.check(bool(shared) and bool(assigned), "set app account token", "no family-shared or assigned purchase")
        cases = [
            (chosen[1]["transaction_id"], 400, 4000187, "TRANSACTION_ID_IS_NOT_ORIGINAL_TRANSACTION_ID_ERROR", token),
            ("abc", 400, 4000006, "INVALID_TRANSACTION_ID", token),
            (customer["app_transaction_id"], 400, 4000048, "APP_TRANSACTION_ID_NOT_SUPPORTED_ERROR", token),
            ("9999999999999999", 404, 4040005, "ORIGINAL_TRANSACTION_ID_NOT_FOUND", token),
            (original, 400, 4000183, "INVALID_APP_ACCOUNT_TOKEN_UUID_ERROR", "not-a-uuid"),
        ]
        cases += [(t["transaction_id"], 400, 4000185, "FAMILY_TRANSACTION_NOT_SUPPORTED_ERROR", token) for _, t in shared[:1]]
        cases += [(t["transaction_id"], 400, 4000227, None, token) for _, t in assigned[:1]]
        for identifier, status, code, name, value in cases:
            error = self.expect_error(f"set app account token {identifier}", status, code,
                                      client.set_app_account_token, identifier,
                                      UpdateAppAccountTokenRequest(appAccountToken=value))
            if error is not None and name is not None:
                self.check(error.api_error is not None and error.api_error.name == name,
                           f"set app account token {identifier}", f"Apple's library names it {error.api_error}, not {name}")

    def expect_error(self, where, status, code, function, *arguments):
        try:
            self.call("errors", function, *arguments)
        except APIException as error:
            self.check(error.http_status_code == status, where, f"HTTP {error.http_status_code}, expected {status}")
            self.check(error.raw_api_error == code, where, f"error code {error.raw_api_error}, expected {code}")
            return error
        self.check(False, where, "no error")

    def errors(self):
        client = self.clients["Production"]
        self.expect_error("unknown transaction id", 404, 4040010, client.get_transaction_info, "9999999999999999")
        self.expect_error("unknown id in history", 404, 4040010, client.get_transaction_history, "9999999999999999",
                          None, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
        self.expect_error("malformed id", 400, 4000006, client.get_all_subscription_statuses, "not-a-number")
        self.expect_error("bad revision", 400, 4000005, client.get_transaction_history,
                          self.world["customers"][0]["app_transaction_id"], "bm90IGEgcmV2aXNpb24",
                          TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
        forgotten = [c for c in self.world["customers"] if c["forgotten"]]
        for customer in forgotten[:1]:
            for environment in ("Production", "Sandbox"):
                self.expect_error(f"forgotten customer in {environment}", 404, 4040010,
                                  self.clients[environment].get_app_transaction_info, customer["app_transaction_id"])
        other_key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        for name, stranger in (("another key", self.client(Environment.PRODUCTION, self.config["production_url"], key=other_key)),
                               ("another key id", self.client(Environment.PRODUCTION, self.config["production_url"], key_id="OTHERKEY01"))):
            error = self.expect_error(f"bad token ({name})", 401, None, stranger.get_transaction_info,
                                      self.world["customers"][0]["transactions"][0]["transaction_id"]
                                      if self.world["customers"][0]["transactions"] else "2000000000000001")
        limited = self.client(Environment.PRODUCTION, self.config["limited_url"])
        order_id = next(iter(self.config["orders"]), "MZZZZZZZZZZZZZ")
        first = None
        try:
            first = self.call("order", limited.look_up_order_id, order_id)
        except APIException as error:
            self.check(False, "429", f"the first request was refused: {error.http_status_code}")
        self.check(first is not None, "429", "no first answer")
        self.expect_error("rate limit through Apple's client", 429, 4290000, limited.look_up_order_id, order_id)
        # Apple's client raises APIException without the response headers, so Retry-After is read
        # from a plain request signed with the library's own token.
        response = requests.get(f"{self.config['limited_url'].rstrip('/')}/inApps/v1/lookup/{order_id}",
                                headers=limited._get_headers(), timeout=30)
        self.requests += 1
        self.check(response.status_code == 429, "429 header", f"HTTP {response.status_code}")
        retry_after = response.headers.get("Retry-After", "")
        self.check(retry_after.isdigit() and int(retry_after) > time.time() * 1000 - 60_000, "429 header",
                   f"Retry-After is {retry_after!r}, not epoch milliseconds")

    # MARK: - Shapes

    def shapes(self):
        verdicts = {}
        for case in self.config["shapes"]:
            verifier = self.verifiers[case["environment"]]
            method = {
                "transaction": verifier.verify_and_decode_signed_transaction,
                "renewal": verifier.verify_and_decode_renewal_info,
                "app": verifier.verify_and_decode_app_transaction,
                "notification": verifier.verify_and_decode_notification,
            }[case["kind"]]
            try:
                method(case["jws"])
                verdicts[case["name"]] = {"status": "OK", "cause": ""}
            except VerificationException as error:
                cause = error.__cause__
                verdicts[case["name"]] = {
                    "status": error.status.name,
                    "cause": f"{type(cause).__name__}: {cause}" if cause is not None else "",
                }
        return verdicts

    def run(self):
        verdicts = self.shapes()
        if self.config.get("shapes_only"):
            return {"library_version": version("app-store-server-library"), "failures": self.failures,
                    "shape_verdicts": verdicts}
        customers = [c for c in self.world["customers"] if not c["forgotten"]]
        steps = []
        for customer in customers:
            for step in (self.history, self.statuses, self.transaction_info, self.refund_history,
                         self.app_transaction):
                steps.append((f"{step.__name__} of {customer['app_transaction_id']}", step, (customer,)))
        for step in (self.order_lookup, self.notification_history, self.errors, self.set_app_account_token,
                     self.test_notifications):
            steps.append((step.__name__, step, ()))
        for name, step, arguments in steps:
            # An answer Apple's client refuses (an APIException, a model it cannot read) is a
            # failure of the simulator; the other steps still run.
            try:
                step(*arguments)
            except Exception as error:
                self.failures.append(f"{name}: {type(error).__name__}: {error}")
        return {
            "library_version": version("app-store-server-library"),
            "customers": len(customers),
            "requests": self.requests,
            "checks": self.checks,
            "signed_values_verified": len(self.verified),
            "endpoints": sorted(self.endpoints),
            "failures": self.failures,
            "shape_verdicts": verdicts,
        }


def main():
    config_path, result_path = sys.argv[1:3]
    with open(config_path) as handle:
        config = json.load(handle)
    result = Run(config).run()
    with open(result_path, "w") as handle:
        json.dump(result, handle, indent=1)
    if "requests" not in result:
        print(f"apple_conformance: {len(result['shape_verdicts'])} verdicts of Apple's library {result['library_version']}")
        return
    print(f"apple_conformance: {result['requests']} requests, {result['signed_values_verified']} signed values "
          f"verified by Apple's library {result['library_version']}, {result['checks']} checks, "
          f"{len(result['failures'])} failures")
    for failure in result["failures"][:50]:
        print("  " + failure)


if __name__ == "__main__":
    main()
