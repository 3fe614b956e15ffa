//go:build unix

package archive

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testCA is a certificate authority made in the test: a root, an
// intermediate under it, and the keys.
type certKey struct {
	cert *x509.Certificate
	key  *rsa.PrivateKey
}

func makeCert(t *testing.T, cn string, parent *certKey, ca bool, eku ...x509.ExtKeyUsage) *certKey {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn, Organization: []string{"OpenWorker tests"}},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: eku,
		BasicConstraintsValid: true, IsCA: ca,
	}
	if ca {
		tmpl.KeyUsage |= x509.KeyUsageCertSign
	}
	signer, signerKey := tmpl, key
	if parent != nil {
		signer, signerKey = parent.cert, parent.key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, signer, &key.PublicKey, signerKey)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := x509.ParseCertificate(der)
	return &certKey{cert: c, key: key}
}

// writePEM writes ck's certificate (and key, when withKey) as PEM files
// in dir and returns their paths.
func (ck *certKey) writePEM(t *testing.T, dir, name string) (cert, key string) {
	t.Helper()
	cert, key = filepath.Join(dir, name+".pem"), filepath.Join(dir, name+"-key.pem")
	os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ck.cert.Raw}), 0o644)
	os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(ck.key)}), 0o600)
	return cert, key
}

// TestSignedByMCPB signs with `mcpb sign --cert --key --intermediate`
// using a certificate authority made in the test: trusted (the root in the
// trust store, the intermediate from the block) it is "signed" by the
// leaf's subject; with the system's roots, or a certificate not for code
// signing, it is invalid and says why.
func TestSignedByMCPB(t *testing.T) {
	m := newMCPB(t)
	dir := t.TempDir()
	root := makeCert(t, "OpenWorker Test Root", nil, true)
	inter := makeCert(t, "OpenWorker Test Intermediate", root, true)
	leaf := makeCert(t, "OpenWorker Test Publisher", inter, false, x509.ExtKeyUsageCodeSigning)
	web := makeCert(t, "OpenWorker Test Web Server", inter, false, x509.ExtKeyUsageServerAuth)
	interPEM, _ := inter.writePEM(t, dir, "inter")

	sign := func(ck *certKey, name string) string {
		path := packed(t, m)
		cert, key := ck.writePEM(t, dir, name)
		m.run(false, "sign", path, "--cert", cert, "--key", key, "--intermediate", interPEM)
		return path
	}
	withRoots := func(pool *x509.CertPool) {
		old := systemRoots
		systemRoots = pool
		t.Cleanup(func() { systemRoots = old })
	}
	trusted := x509.NewCertPool()
	trusted.AddCert(root.cert)
	codePath, webPath := sign(leaf, "leaf"), sign(web, "web")

	check := func(path string, status Status, problem string) Signature {
		t.Helper()
		a, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		s := a.Signature()
		if s.Status != status || !strings.Contains(s.Problem, problem) || (problem == "") != (s.Problem == "") {
			t.Errorf("%s: signature = %+v, want %s %q", filepath.Base(path), s, status, problem)
		}
		return s
	}
	s := check(codePath, Invalid, "not trusted by this computer") // the system's roots
	withRoots(trusted)
	s = check(codePath, Signed, "")
	if s.SubjectCN != "OpenWorker Test Publisher" || s.Issuer != "CN=OpenWorker Test Intermediate,O=OpenWorker tests" ||
		!s.NotAfter.Equal(leaf.cert.NotAfter) {
		t.Errorf("signed: %+v", s)
	}
	check(webPath, Invalid, "not trusted")
	t.Logf("mcpb verify says: %s", strings.TrimSpace(m.run(true, "verify", codePath)))
}
