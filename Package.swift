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

    // MARK: - HTTP server

    .target(
      name: "HTTPServer",
      dependencies: []
    ),
    .testTarget(
      name: "HTTPServerTests",
      dependencies: ["HTTPServer"]
    ),

    // MARK: - Executable

    .executableTarget(
      name: "receipt-migrate",
      dependencies: []
    ),
  ],
  swiftLanguageModes: [.v6]
)
