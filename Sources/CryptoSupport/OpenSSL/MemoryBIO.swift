import COpenSSL

/// An OpenSSL memory `BIO`, freed when the wrapper goes away.
///
/// Used to feed bytes to OpenSSL's PEM and PKCS#7 readers and to collect what its writers produce.
/// Not shared between threads: each operation makes its own.
final class MemoryBIO {
  let pointer: OpaquePointer

  /// An empty, writable BIO.
  init() throws(CryptoError) {
    guard let bio = BIO_new(BIO_s_mem()) else {
      throw CryptoError(.operationFailed, "OpenSSL could not allocate a memory buffer")
    }
    pointer = bio
  }

  /// A BIO that reads a copy of `bytes`.
  init(copying bytes: [UInt8]) throws(CryptoError) {
    guard let bio = BIO_new(BIO_s_mem()) else {
      throw CryptoError(.operationFailed, "OpenSSL could not allocate a memory buffer")
    }
    pointer = bio
    let written = bytes.withUnsafeBytes { input in
      input.isEmpty
        || (input.count <= Int(Int32.max)
          && BIO_write(bio, input.baseAddress, Int32(input.count)) == Int32(input.count))
    }
    guard written else {
      throw CryptoError(.operationFailed, "OpenSSL could not buffer \(bytes.count) bytes")
    }
  }

  deinit {
    BIO_free(pointer)
  }

  /// Everything written to the BIO and not yet read.
  func contents() -> [UInt8] {
    var base: UnsafeMutablePointer<CChar>?
    // `BIO_get_mem_data` is a macro over `BIO_ctrl`; Swift cannot import it.
    let length = BIO_ctrl(pointer, BIO_CTRL_INFO, 0, &base)
    guard length > 0, let base else { return [] }
    return Array(UnsafeRawBufferPointer(start: base, count: length))
  }

  /// Everything written to the BIO, as UTF-8 text.
  func text() -> String {
    String(decoding: contents(), as: UTF8.self)
  }
}
