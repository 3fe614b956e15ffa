package archive

import (
	"bytes"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/smallstep/pkcs7"
)

// The signature block `mcpb sign` appends after the zip:
// "MCPB_SIG_V1", a little-endian uint32 length N, N bytes of DER PKCS#7
// SignedData (detached, over every byte before the block), "MCPB_SIG_END"
// (docs/extensions.md#the-file).
const (
	sigHeader = "MCPB_SIG_V1"
	sigFooter = "MCPB_SIG_END"
)

// Status is what a signature check found (docs/extensions.md#signatures).
type Status string

const (
	// Unsigned: no signature block.
	Unsigned Status = "unsigned"
	// SelfSigned: the signature is valid over the archive's bytes, and its
	// certificate is its own issuer; nobody vouches for who made it.
	SelfSigned Status = "self-signed"
	// Signed: the signature is valid and its certificate chains to a root
	// the system trusts, for code signing, at the time of the check.
	Signed Status = "signed"
	// Invalid: a signature block is present but malformed, does not match
	// the bytes (changed after signing), or its certificate is neither
	// trusted nor self-signed. Problem says which.
	Invalid Status = "invalid"
)

// Signature is the outcome of checking an archive's signature block.
// Subject and Issuer are the signer certificate's distinguished names
// (e.g. "CN=MCPB Self-Signed Certificate,O=MCPB Extensions,C=US"),
// SubjectCN its common name; NotAfter its expiry. They are empty for
// Unsigned and for a block that does not parse. Problem, for Invalid (and
// for an expired self-signed certificate), says what is wrong.
type Signature struct {
	Status    Status
	Subject   string
	SubjectCN string
	Issuer    string
	NotAfter  time.Time
	Problem   string
}

// splitSignature returns the bytes before a trailing signature block and
// the block's PKCS#7 bytes (nil when there is none). problem is set when a
// block is present but malformed; zip is then the bytes before it as far
// as they can be told.
func splitSignature(data []byte) (zip, sig []byte, problem string) {
	if !bytes.HasSuffix(data, []byte(sigFooter)) {
		// A header after the zip's end without a footer: a cut block.
		if h := bytes.LastIndex(data, []byte(sigHeader)); h >= 0 && endsWithDirectory(data[:h]) {
			return data[:h], nil, "the signature block is cut short (no " + sigFooter + " at the end of the file)"
		}
		return data, nil, ""
	}
	end := len(data) - len(sigFooter)
	h := bytes.LastIndex(data[:end], []byte(sigHeader))
	if h < 0 {
		return data[:end], nil, "the file ends in " + sigFooter + " but has no " + sigHeader
	}
	body := data[h+len(sigHeader) : end]
	if len(body) < 4 {
		return data[:h], nil, "the signature block has no length field"
	}
	n := binary.LittleEndian.Uint32(body)
	if uint64(n) != uint64(len(body)-4) {
		return data[:h], nil, fmt.Sprintf("the signature block's length field says %d bytes but it holds %d", n, len(body)-4)
	}
	return data[:h], body[4:], ""
}

// endsWithDirectory reports whether b ends with a zip end-of-central-
// directory record (and its comment), as a zip does.
func endsWithDirectory(b []byte) bool {
	for i := len(b) - 22; i >= 0 && i >= len(b)-22-0xffff; i-- {
		if string(b[i:i+4]) == "PK\x05\x06" && i+22+int(binary.LittleEndian.Uint16(b[i+20:])) == len(b) {
			return true
		}
	}
	return false
}

// systemRoots is the trust store of "signed": nil means the system's
// roots (on macOS and Windows, its verifier). Tests set their own.
var systemRoots *x509.CertPool

// verify checks sig, a detached PKCS#7 SignedData, over content at time
// now. The signature (digest and the signer's signature over the
// authenticated attributes) is checked by github.com/smallstep/pkcs7; the
// chain by crypto/x509 against systemRoots for code signing, with the
// other certificates of the block as intermediates.
func verify(content, sig []byte, now time.Time) Signature {
	p7, err := pkcs7.Parse(sig)
	if err != nil {
		return Signature{Status: Invalid, Problem: "the signature block is not PKCS#7 SignedData: " + err.Error()}
	}
	signer := p7.GetOnlySigner()
	if signer == nil {
		return Signature{Status: Invalid, Problem: fmt.Sprintf("the signature has %d signers, or no certificate for its signer; it needs exactly one", len(p7.Signers))}
	}
	s := Signature{Subject: signer.Subject.String(), SubjectCN: signer.Subject.CommonName,
		Issuer: signer.Issuer.String(), NotAfter: signer.NotAfter}
	p7.Content = content
	if err := p7.Verify(); err != nil {
		s.Status = Invalid
		var mismatch *pkcs7.MessageDigestMismatchError
		var timeErr *pkcs7.SigningTimeNotValidError
		switch {
		case errors.As(err, &mismatch):
			s.Problem = "the archive's bytes changed after it was signed (the digest does not match)"
			return s
		case errors.As(err, &timeErr):
			s.Problem = "the signing time is outside the certificate's validity: " + err.Error()
			return s
		}
		// The digest and signing time passed; the library may have failed
		// only on re-encoding the attributes (see signedattrs.go).
		if rerr := checkSignedAttrs(sig, signer); rerr != nil {
			s.Problem = "the signature does not verify: " + rerr.Error()
			return s
		}
	}
	inter := x509.NewCertPool()
	for _, c := range p7.Certificates {
		if c != signer {
			inter.AddCert(c)
		}
	}
	_, chainErr := signer.Verify(x509.VerifyOptions{Roots: systemRoots, Intermediates: inter,
		CurrentTime: now, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}})
	switch {
	case chainErr == nil:
		s.Status = Signed
	case selfSigned(signer):
		s.Status = SelfSigned
		if now.After(signer.NotAfter) || now.Before(signer.NotBefore) {
			s.Problem = fmt.Sprintf("the certificate is valid from %s to %s only", signer.NotBefore.Format(time.DateOnly), signer.NotAfter.Format(time.DateOnly))
		}
	default:
		s.Status = Invalid
		s.Problem = "the certificate is not trusted by this computer: " + chainErr.Error()
	}
	return s
}

// selfSigned reports whether c names itself as issuer and its signature
// verifies with its own key.
func selfSigned(c *x509.Certificate) bool {
	return bytes.Equal(c.RawIssuer, c.RawSubject) &&
		c.CheckSignature(c.SignatureAlgorithm, c.RawTBSCertificate, c.Signature) == nil
}
