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

    // MARK: - Command line

    .target(name: "ArgumentParsing"),
    .target(name: "Terminal"),

    // MARK: - Domain

    .target(name: "LegacyReceipts", dependencies: ["Chronology", "JSON"]),
    .target(name: "AppStoreServerAPI", dependencies: ["JSON", "Chronology", "CryptoSupport"]),
    .target(name: "MigrationStore", dependencies: ["CSQLite"]),

    // MARK: - Simulator

    .target(name: "HTTPServer"),
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
        "Chronology", "JSON", "CryptoSupport", "LegacyReceipts", "MigrationStore", "Terminal",
      ]
    ),

    // MARK: - Benchmarks

    .target(
      name: "Benchmarks",
      dependencies: [
        "AppStoreServerAPI", "AppStoreSimulator", "Chronology", "CryptoSupport", "JSON",
        "LegacyReceipts",
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
      dependencies: ["CryptoSupport"],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(
      name: "LegacyReceiptsTests", dependencies: ["LegacyReceipts", "Chronology", "JSON"]),
    .testTarget(name: "MigrationStoreTests", dependencies: ["MigrationStore"]),
    .testTarget(
      name: "AppStoreServerAPITests",
      dependencies: ["AppStoreServerAPI", "CryptoSupport", "Chronology", "JSON"]
    ),
    .testTarget(
      name: "MigrationPipelineTests",
      dependencies: ["MigrationPipeline", "MigrationStore", "LegacyReceipts", "Chronology"]
    ),
    .testTarget(name: "ReceiptMigrateTests", dependencies: ["receipt-migrate"]),
    .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"]),
    .testTarget(
      name: "AppStoreSimulatorTests",
      dependencies: [
        "AppStoreSimulator", "LegacyReceipts", "Chronology", "AppStoreServerAPI", "CryptoSupport",
        "HTTPServer", "JSON",
      ]),
    .testTarget(name: "ArgumentParsingTests", dependencies: ["ArgumentParsing"]),
    .testTarget(name: "TerminalTests", dependencies: ["Terminal"]),
  ],
  swiftLanguageModes: [.v6]
)
