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
    .target(name: "CompactEncoding", dependencies: ["Chronology"]),

    // MARK: - Command line

    .target(name: "ArgumentParsing"),
    .target(name: "Terminal"),

    // MARK: - Domain

    .target(
      name: "LegacyReceipts",
      dependencies: ["Chronology", "CompactEncoding", "JSON", "ASN1", "CryptoSupport"]),
    .target(name: "HTTPClient", dependencies: ["COpenSSL", "Chronology"]),
    .target(
      name: "AppStoreServerAPI",
      dependencies: ["JSON", "Chronology", "CompactEncoding", "CryptoSupport", "HTTPClient"]),
    .target(
      name: "Entitlements", dependencies: ["Chronology", "LegacyReceipts", "AppStoreServerAPI"]),
    .target(name: "MigrationStore", dependencies: ["CSQLite", "JSON"]),
    .target(
      name: "MigrationReports",
      dependencies: [
        "Chronology", "CryptoSupport", "Entitlements", "JSON", "LegacyReceipts", "Terminal",
      ]
    ),

    // MARK: - Simulator

    .target(name: "HTTPServer", dependencies: ["Chronology"]),
    .target(
      name: "AppStoreSimulator",
      dependencies: [
        "Chronology", "JSON", "CryptoSupport", "LegacyReceipts", "AppStoreServerAPI", "HTTPServer",
      ]
    ),

    // MARK: - Stages

    .target(
      name: "MigrationPipeline",
      dependencies: [
        "AppStoreServerAPI", "Chronology", "CompactEncoding", "CryptoSupport", "Entitlements",
        "HTTPClient", "JSON", "LegacyReceipts", "MigrationStore", "Terminal", "MigrationReports",
      ]
    ),

    // MARK: - Benchmarks

    .target(
      name: "Benchmarks",
      dependencies: [
        "AppStoreServerAPI", "AppStoreSimulator", "Chronology", "CryptoSupport", "JSON",
        "LegacyReceipts", "MigrationPipeline", "MigrationReports", "MigrationStore",
      ]
    ),

    // MARK: - Executable

    .executableTarget(
      name: "receipt-migrate",
      dependencies: [
        "AppStoreServerAPI", "AppStoreSimulator", "ArgumentParsing", "Benchmarks", "Chronology",
        "CryptoSupport", "LegacyReceipts", "MigrationPipeline", "MigrationStore", "Terminal",
      ]
    ),

    // MARK: - Tests

    .testTarget(name: "ChronologyTests", dependencies: ["Chronology"]),
    .testTarget(name: "JSONTests", dependencies: ["JSON"]),
    .testTarget(
      name: "CryptoSupportTests",
      dependencies: ["CryptoSupport", "TestDirectories"],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(
      name: "LegacyReceiptsTests",
      dependencies: [
        "LegacyReceipts", "Chronology", "CompactEncoding", "JSON", "ASN1", "CryptoSupport",
        "TestDirectories", "CSVReference",
      ]),
    .testTarget(name: "ASN1Tests", dependencies: ["ASN1"]),
    .testTarget(name: "MigrationStoreTests", dependencies: ["MigrationStore"]),
    .testTarget(
      name: "AppStoreServerAPITests",
      dependencies: [
        "AppStoreServerAPI", "CompactEncoding", "CryptoSupport", "Chronology", "JSON",
        "TestDirectories",
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "MigrationPipelineTests",
      dependencies: [
        "MigrationPipeline", "MigrationStore", "MigrationReports", "LegacyReceipts", "Chronology",
        "AppStoreServerAPI", "HTTPServer", "TestDirectories", "CSVReference",
      ]
    ),
    .testTarget(
      name: "ReceiptMigrateTests",
      dependencies: ["receipt-migrate", "TestDirectories", "HTTPServer", "ApplesLibrary"],
      // Run by NotificationReplayEndToEndTests with the Python of .venv-conformance/.
      exclude: ["verify_replayed_notifications.py"]),
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "MigrationPipeline", "AppStoreSimulator", "AppStoreServerAPI", "MigrationStore",
        "MigrationReports", "Entitlements", "Chronology", "CryptoSupport", "GoldenFiles",
        "TestDirectories",
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"]),
    .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "HTTPServer"]),
    .testTarget(
      name: "EntitlementsTests",
      dependencies: ["Entitlements", "AppStoreServerAPI", "LegacyReceipts", "Chronology"]
    ),
    .testTarget(
      name: "AppStoreSimulatorTests",
      dependencies: [
        "AppStoreSimulator", "LegacyReceipts", "Chronology", "AppStoreServerAPI", "CryptoSupport",
        "HTTPServer", "JSON", "TestDirectories", "ApplesLibrary",
      ],
      // Run by AppleConformanceTests with the Python of .venv-conformance/.
      exclude: ["Conformance/apple_conformance.py"]),
    .testTarget(name: "ArgumentParsingTests", dependencies: ["ArgumentParsing"]),
    .testTarget(name: "TerminalTests", dependencies: ["Terminal"]),
    .testTarget(
      name: "MigrationReportsTests",
      dependencies: [
        "MigrationReports", "Entitlements", "LegacyReceipts", "Chronology", "CryptoSupport", "JSON",
        "GoldenFiles", "TestDirectories", "CSVReference",
      ],
      exclude: ["Fixtures"]
    ),

    // Test support shared by test targets: golden files read from the source tree, temporary
    // directories removed when their test ends, and Apple's Python library.
    .target(name: "GoldenFiles", path: "Tests/GoldenFiles"),
    .target(name: "TestDirectories", path: "Tests/TestDirectories"),
    // Apple's app-store-server-library, as the tests that let Apple's code judge ours run it.
    .target(name: "ApplesLibrary", path: "Tests/ApplesLibrary"),
    // The plain CSV splitting the team-table code is checked against, by the unit tests and by
    // the team-table fuzz target (Scripts/fuzz compiles CSVReference.swift and SplitMix.swift
    // into the harness), and Python's csv module with the random CSV it is judged on.
    .target(name: "CSVReference", path: "Tests/CSVReference"),
  ],
  swiftLanguageModes: [.v6]
)
