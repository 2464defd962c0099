// swift-tools-version: 6.1
// receipt-migrate: move a server from /verifyReceipt to the App Store Server API, account by account.
//
// Deliberately no package dependencies: Foundation, OpenSSL and libsqlite3 are the whole list.

import PackageDescription

let package = Package(
  name: "receipt-migrate",
  products: [
    .executable(name: "receipt-migrate", targets: ["receipt-migrate"])
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
    .target(name: "CryptoSupport", dependencies: ["COpenSSL"]),
    .target(name: "ASN1"),

    // MARK: - Command line

    .target(name: "ArgumentParsing"),
    .target(name: "Terminal"),

    // MARK: - Domain

    .target(
      name: "LegacyReceipts", dependencies: ["Chronology", "JSON", "ASN1", "CryptoSupport"]),
    .target(name: "MigrationStore", dependencies: ["CSQLite"]),

    // MARK: - Benchmarks

    .target(name: "Benchmarks", dependencies: ["LegacyReceipts", "CryptoSupport", "Chronology"]),

    // MARK: - Executable

    .executableTarget(
      name: "receipt-migrate",
      dependencies: [
        "ArgumentParsing", "Chronology", "CryptoSupport", "LegacyReceipts", "Terminal",
      ]
    ),

    // MARK: - Tests

    .testTarget(name: "ChronologyTests", dependencies: ["Chronology"]),
    .testTarget(name: "JSONTests", dependencies: ["JSON"]),
    .testTarget(name: "ASN1Tests", dependencies: ["ASN1"]),
    .testTarget(
      name: "CryptoSupportTests",
      dependencies: ["CryptoSupport"],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(
      name: "LegacyReceiptsTests",
      dependencies: ["LegacyReceipts", "Chronology", "JSON", "ASN1", "CryptoSupport"]),
    .testTarget(name: "MigrationStoreTests", dependencies: ["MigrationStore"]),
    .testTarget(name: "ArgumentParsingTests", dependencies: ["ArgumentParsing"]),
    .testTarget(name: "TerminalTests", dependencies: ["Terminal"]),
  ],
  swiftLanguageModes: [.v6]
)
