// swift-tools-version: 6.1
// receipt-migrate: move a server from /verifyReceipt to the App Store Server API, account by account.
//
// Deliberately no package dependencies: Foundation, OpenSSL and libsqlite3 are the whole list.

import PackageDescription

let package = Package(
  name: "receipt-migrate",
  products: [
    .executable(name: "receipt-migrate", targets: ["receipt-migrate"]),
    // A library product only so that Scripts/bench-verify.sh can drive the benchmark from a
    // throwaway package until `receipt-migrate bench verify` exists.
    .library(name: "Benchmarks", targets: ["Benchmarks"]),
  ],
  targets: [
    // MARK: - System libraries

    .systemLibrary(
      name: "COpenSSL",
      pkgConfig: "openssl",
      providers: [.apt(["libssl-dev"])]
    ),
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),

    // MARK: - Foundations

    .target(name: "Chronology"),
    .target(name: "JSON"),

    .target(
      name: "CryptoSupport",
      dependencies: ["COpenSSL"]
    ),

    // MARK: - Domain

    .target(name: "LegacyReceipts", dependencies: ["Chronology", "JSON"]),
    .target(
      name: "AppStoreServerAPI",
      dependencies: ["JSON", "Chronology", "CryptoSupport"]
    ),

    // MARK: - Benchmarks

    .target(
      name: "Benchmarks",
      dependencies: ["AppStoreServerAPI", "CryptoSupport", "Chronology", "JSON"]
    ),

    // MARK: - Executable

    .executableTarget(
      name: "receipt-migrate",
      dependencies: []
    ),

    // MARK: - Tests

    .testTarget(name: "ChronologyTests", dependencies: ["Chronology"]),
    .testTarget(name: "JSONTests", dependencies: ["JSON"]),
    .testTarget(
      name: "LegacyReceiptsTests", dependencies: ["LegacyReceipts", "Chronology", "JSON"]),
    .testTarget(
      name: "AppStoreServerAPITests",
      dependencies: ["AppStoreServerAPI", "CryptoSupport", "Chronology", "JSON"]
    ),
    .testTarget(
      name: "CryptoSupportTests",
      dependencies: ["CryptoSupport"],
      resources: [.copy("Fixtures")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
