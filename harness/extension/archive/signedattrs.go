package archive

import (
	"crypto"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"fmt"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// `mcpb sign` signs with node-forge, which encodes the signed
// (authenticated) attributes in the order given (contentType,
// messageDigest, signingTime), not in DER's sorted SET OF order
// (digitalbazaar/forge#1013). The signature is over those bytes as sent,
// which OpenSSL verifies; the Go PKCS#7 libraries re-encode the attributes
// sorted and so reject it. checkSignedAttrs checks the signer's signature
// over the attributes exactly as they appear in the block, as RFC 5652
// §5.4 asks; the digest, the signing time and the certificates are still
// checked by the library (see verify).

// rawSignedAttrs returns, for the only SignerInfo of a DER ContentInfo
// holding SignedData, its signedAttrs re-tagged as a SET (the bytes the
// signature covers), its digest algorithm and its signature.
func rawSignedAttrs(der []byte) (attrs []byte, digestOID asn1.ObjectIdentifier, sig []byte, err error) {
	bad := errors.New("the PKCS#7 structure is not DER SignedData with one signer")
	si, ok := onlySignerInfo(der)
	if !ok {
		return nil, nil, nil, bad
	}
	var alg cryptobyte.String
	var raw cryptobyte.String
	var tag cbasn1.Tag
	var signature []byte
	if !si.SkipASN1(cbasn1.INTEGER) || !si.SkipASN1(cbasn1.SEQUENCE) ||
		!si.ReadASN1(&alg, cbasn1.SEQUENCE) || !alg.ReadASN1ObjectIdentifier(&digestOID) ||
		!si.ReadAnyASN1Element(&raw, &tag) || tag != cbasn1.Tag(0).Constructed().ContextSpecific() ||
		!si.SkipASN1(cbasn1.SEQUENCE) || !si.ReadASN1Bytes(&signature, cbasn1.OCTET_STRING) {
		return nil, nil, nil, bad
	}
	attrs = append([]byte(nil), raw...)
	attrs[0] = byte(cbasn1.SET)
	return attrs, digestOID, signature, nil
}

// onlySignerInfo is the body of the only SignerInfo of a DER ContentInfo
// holding SignedData; ok is false for anything else.
func onlySignerInfo(der []byte) (si cryptobyte.String, ok bool) {
	in := cryptobyte.String(der)
	var ci, sd, infos, body cryptobyte.String
	if !in.ReadASN1(&ci, cbasn1.SEQUENCE) || !ci.SkipASN1(cbasn1.OBJECT_IDENTIFIER) ||
		!ci.ReadASN1(&body, cbasn1.Tag(0).Constructed().ContextSpecific()) ||
		!body.ReadASN1(&sd, cbasn1.SEQUENCE) {
		return nil, false
	}
	// version, digestAlgorithms, encapContentInfo, [0] certificates, [1] crls
	if !sd.SkipASN1(cbasn1.INTEGER) || !sd.SkipASN1(cbasn1.SET) || !sd.SkipASN1(cbasn1.SEQUENCE) ||
		!sd.SkipOptionalASN1(cbasn1.Tag(0).Constructed().ContextSpecific()) ||
		!sd.SkipOptionalASN1(cbasn1.Tag(1).Constructed().ContextSpecific()) {
		return nil, false
	}
	ok = sd.ReadASN1(&infos, cbasn1.SET) && infos.ReadASN1(&si, cbasn1.SEQUENCE) && infos.Empty()
	return si, ok
}

// digests maps the digest algorithms of signer infos to hashes.
var digests = map[string]crypto.Hash{
	"2.16.840.1.101.3.4.2.1": crypto.SHA256,
	"2.16.840.1.101.3.4.2.2": crypto.SHA384,
	"2.16.840.1.101.3.4.2.3": crypto.SHA512,
}

// checkSignedAttrs checks signer's signature over the signed attributes
// of der as encoded there.
func checkSignedAttrs(der []byte, signer *x509.Certificate) error {
	attrs, oid, sig, err := rawSignedAttrs(der)
	if err != nil {
		return err
	}
	h, ok := digests[oid.String()]
	if !ok {
		return fmt.Errorf("unsupported digest algorithm %s (want SHA-256, -384 or -512)", oid)
	}
	var alg x509.SignatureAlgorithm
	switch signer.PublicKeyAlgorithm {
	case x509.RSA:
		alg = map[crypto.Hash]x509.SignatureAlgorithm{crypto.SHA256: x509.SHA256WithRSA, crypto.SHA384: x509.SHA384WithRSA, crypto.SHA512: x509.SHA512WithRSA}[h]
	case x509.ECDSA:
		alg = map[crypto.Hash]x509.SignatureAlgorithm{crypto.SHA256: x509.ECDSAWithSHA256, crypto.SHA384: x509.ECDSAWithSHA384, crypto.SHA512: x509.ECDSAWithSHA512}[h]
	case x509.Ed25519:
		alg = x509.PureEd25519
	default:
		return fmt.Errorf("unsupported key type %v", signer.PublicKeyAlgorithm)
	}
	return signer.CheckSignature(alg, attrs, sig)
}
