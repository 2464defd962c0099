import COpenSSL

/// Builds and signs an X.509 v3 certificate from a ``CertificateTemplate`` with OpenSSL.
///
/// Only for certificates the toolkit issues itself (tests, the simulator); nothing built here is
/// ever trusted by virtue of having been built.
enum CertificateBuilder {
  /// A certificate for `subjectKey`, signed by `signingKey`, issued by `issuer` (or self-signed
  /// when `issuer` is `nil`, in which case `signingKey` must belong to the subject).
  static func issue(
    _ template: CertificateTemplate, subjectKey: OpaquePointer, issuer: X509Certificate?,
    signingKey: OpaquePointer
  ) throws(CryptoError) -> X509Certificate {
    guard let certificate = X509_new() else {
      throw CryptoError(.operationFailed, "OpenSSL could not allocate a certificate")
    }
    do throws(CryptoError) {
      try fill(certificate, from: template, subjectKey: subjectKey, issuer: issuer)
      guard X509_sign(certificate, signingKey, EVP_sha256()) > 0 else {
        throw CryptoError(
          .operationFailed, "OpenSSL could not sign the certificate \(describe(template))")
      }
    } catch {
      X509_free(certificate)
      throw error
    }
    return try X509Certificate(takingOwnershipOf: certificate)
  }

  private static func fill(
    _ certificate: OpaquePointer, from template: CertificateTemplate, subjectKey: OpaquePointer,
    issuer: X509Certificate?
  ) throws(CryptoError) {
    let name = describe(template)
    // Version 3 (encoded as 2) is required for extensions.
    guard X509_set_version(certificate, 2) == 1 else {
      throw CryptoError(.operationFailed, "OpenSSL could not set the version of \(name)")
    }
    try setSerialNumber(of: certificate, to: template.serialNumber, name: name)
    let subjectName = try makeName(template.subject, for: name)
    defer { X509_NAME_free(subjectName) }
    guard X509_set_subject_name(certificate, subjectName) == 1,
      X509_set_issuer_name(
        certificate, issuer.map { X509_get_subject_name($0.certificate) } ?? subjectName) == 1
    else {
      throw CryptoError(.operationFailed, "OpenSSL could not set the names of \(name)")
    }
    guard template.notBefore <= template.notAfter,
      ASN1_TIME_set(X509_getm_notBefore(certificate), seconds(template.notBefore)) != nil,
      ASN1_TIME_set(X509_getm_notAfter(certificate), seconds(template.notAfter)) != nil
    else {
      throw CryptoError(
        .invalidArgument,
        "the validity of \(name) (\(template.notBefore) to \(template.notAfter) ms) is not a "
          + "valid period; notBefore must not be after notAfter")
    }
    guard X509_set_pubkey(certificate, subjectKey) == 1 else {
      throw CryptoError(.operationFailed, "OpenSSL could not set the public key of \(name)")
    }
    try addExtensions(to: certificate, from: template, issuer: issuer, name: name)
  }

  // MARK: - Fields

  private static func setSerialNumber(
    of certificate: OpaquePointer, to requested: [UInt8]?, name: String
  ) throws(CryptoError) {
    var serial: [UInt8]
    if let requested {
      serial = requested
    } else {
      // RFC 5280: positive, at most 20 bytes, unpredictable enough to be unique.
      serial = try SecureRandom.bytes(count: 16)
      serial[0] = (serial[0] & 0x7F) | 0x40
    }
    guard !serial.isEmpty, serial.count <= 20,
      let number = BN_bin2bn(serial, Int32(serial.count), nil)
    else {
      throw CryptoError(
        .invalidArgument, "the serial number of \(name) must be between 1 and 20 bytes")
    }
    defer { BN_free(number) }
    guard BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != nil else {
      throw CryptoError(.operationFailed, "OpenSSL could not set the serial number of \(name)")
    }
  }

  private static func makeName(_ name: DistinguishedName, for certificate: String)
    throws(CryptoError) -> OpaquePointer
  {
    guard let x509Name = X509_NAME_new() else {
      throw CryptoError(.operationFailed, "OpenSSL could not allocate a name")
    }
    for attribute in name.attributes {
      let added = Array(attribute.value.utf8).withUnsafeBufferPointer { value in
        X509_NAME_add_entry_by_txt(
          x509Name, attribute.type, MBSTRING_UTF8, value.baseAddress, Int32(value.count), -1, 0)
      }
      guard added == 1 else {
        X509_NAME_free(x509Name)
        throw CryptoError(
          .invalidArgument,
          "the name attribute \(attribute.type)=\(attribute.value) of \(certificate) is not valid; "
            + "use a short name such as CN, O, OU or C, or a dotted object identifier, and a value "
            + "within the attribute's length limit")
      }
    }
    return x509Name
  }

  // MARK: - Extensions

  private static func addExtensions(
    to certificate: OpaquePointer, from template: CertificateTemplate, issuer: X509Certificate?,
    name: String
  ) throws(CryptoError) {
    var context = X509V3_CTX()
    X509V3_set_ctx(&context, issuer?.certificate ?? certificate, certificate, nil, nil, 0)
    var constraints = "critical,CA:\(template.isCertificateAuthority ? "TRUE" : "FALSE")"
    if let pathLength = template.pathLengthConstraint {
      constraints += ",pathlen:\(pathLength)"
    }
    try add(NID_basic_constraints, constraints, to: certificate, context: &context, name: name)
    if !template.keyUsage.isEmpty {
      let usage = "critical,\(template.keyUsage.configurationValue)"
      try add(NID_key_usage, usage, to: certificate, context: &context, name: name)
    }
    try add(NID_subject_key_identifier, "hash", to: certificate, context: &context, name: name)
    // A self-signed root needs no authority key identifier (RFC 5280 §4.2.1.1).
    if issuer != nil {
      try add(
        NID_authority_key_identifier, "keyid:always", to: certificate, context: &context,
        name: name)
    }
    for oid in template.markerExtensionOIDs {
      try addNullExtension(oid, to: certificate, name: name)
    }
  }

  private static func add(
    _ nid: Int32, _ value: String, to certificate: OpaquePointer,
    context: inout X509V3_CTX, name: String
  ) throws(CryptoError) {
    guard let `extension` = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
      throw CryptoError(
        .invalidArgument, "OpenSSL rejected the extension \"\(value)\" for \(name)")
    }
    defer { X509_EXTENSION_free(`extension`) }
    guard X509_add_ext(certificate, `extension`, -1) == 1 else {
      throw CryptoError(.operationFailed, "OpenSSL could not add an extension to \(name)")
    }
  }

  /// Adds a non-critical extension whose value is the DER of ASN.1 NULL (`05 00`), as Apple's
  /// marker extensions are.
  private static func addNullExtension(_ oid: String, to certificate: OpaquePointer, name: String)
    throws(CryptoError)
  {
    guard let object = OBJ_txt2obj(oid, 1) else {
      throw CryptoError(
        .invalidArgument,
        "\"\(oid)\" is not a dotted object identifier (for \(name)); use a form such as "
          + "1.2.840.113635.100.6.11.1")
    }
    defer { ASN1_OBJECT_free(object) }
    guard let value = ASN1_OCTET_STRING_new() else {
      throw CryptoError(.operationFailed, "OpenSSL could not allocate an extension value")
    }
    defer { ASN1_OCTET_STRING_free(value) }
    let null: [UInt8] = [0x05, 0x00]
    guard ASN1_OCTET_STRING_set(value, null, Int32(null.count)) == 1,
      let `extension` = X509_EXTENSION_create_by_OBJ(nil, object, 0, value)
    else {
      throw CryptoError(.operationFailed, "OpenSSL could not build the extension \(oid)")
    }
    defer { X509_EXTENSION_free(`extension`) }
    guard X509_add_ext(certificate, `extension`, -1) == 1 else {
      throw CryptoError(.operationFailed, "OpenSSL could not add the extension \(oid) to \(name)")
    }
  }

  // MARK: - Helpers

  private static func seconds(_ milliseconds: Int64) -> time_t {
    time_t(UnixSeconds.floor(milliseconds: milliseconds))
  }

  private static func describe(_ template: CertificateTemplate) -> String {
    let commonName = template.subject.attributes.last { $0.type == "CN" }?.value
    return "the certificate \"\(commonName ?? "(no common name)")\""
  }
}
