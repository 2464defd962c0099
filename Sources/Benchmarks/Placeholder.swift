// The verification benchmark; see VerifyBenchmark.swift.
