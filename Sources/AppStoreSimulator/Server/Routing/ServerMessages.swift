import HTTPServer

// The HTTP server's request and response types share their names with the App Store client's
// (`AppStoreServerAPI.HTTPRequest`), and a module named like one of its types cannot qualify
// them; files that import both modules use these names instead.

/// A request as the HTTP server hands it to the simulator.
typealias ServerRequest = HTTPRequest

/// A response as the simulator hands it to the HTTP server.
typealias ServerResponse = HTTPResponse
