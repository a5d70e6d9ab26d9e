// SPDX-License-Identifier: GPL-3.0-or-later
// tls.go - the tls command for Go's crypto/tls (docs/protocol.md, "tls"): a client and a
// server in this process over an in-memory connection pair (tls_conn.go); per suite,
// application writes of each size timed with measure.go's calibration and samples;
// full and resumed TLS 1.3 handshakes per group and certificate type.
package main

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/binary"
	"fmt"
	"io"
	"math/big"
	"os"
	"strconv"
	"strings"
	"time"
)

const tlsUsage = `usage: cipherbench-core-go tls --list
       cipherbench-core-go tls --lib go [--suites S[,S...]|all] [--sizes 1400,16384]
                               [--samples N] [--min-sample-ms T] [--cpu K]
                               [--handshakes] [--no-transfer] [--groups G,...] [--certs C,...]
`

const tlsSeed = 0x5eed0000cb7115
const verifyWrites = 16 // fully checked writes before timing
const hsSuite = "TLS_AES_128_GCM_SHA256"
const hostName = "cipherbench.test"

// tlsSuite: the C core's table (core/tls/suites.c), so that --list and the names agree.
type tlsSuite struct {
	iana                         string
	tls13                        bool
	kx, cipher, mac, ossl, gnutl string
	legacy                       bool
}

var tlsSuites = []tlsSuite{
	{"TLS_AES_128_GCM_SHA256", true, "any", "aes-128-gcm", "aead", "TLS_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256", false},
	{"TLS_AES_256_GCM_SHA384", true, "any", "aes-256-gcm", "aead", "TLS_AES_256_GCM_SHA384", "TLS_AES_256_GCM_SHA384", false},
	{"TLS_CHACHA20_POLY1305_SHA256", true, "any", "chacha20-poly1305", "aead", "TLS_CHACHA20_POLY1305_SHA256", "TLS_CHACHA20_POLY1305_SHA256", false},
	{"TLS_AES_128_CCM_SHA256", true, "any", "aes-128-ccm", "aead", "TLS_AES_128_CCM_SHA256", "TLS_AES_128_CCM_SHA256", false},
	{"TLS_AES_128_CCM_8_SHA256", true, "any", "aes-128-ccm", "aead-8", "TLS_AES_128_CCM_8_SHA256", "TLS_AES_128_CCM_8_SHA256", false},
	{"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", false, "ECDHE-RSA", "aes-128-gcm", "aead", "ECDHE-RSA-AES128-GCM-SHA256", "TLS_ECDHE_RSA_AES_128_GCM_SHA256", false},
	{"TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", false, "ECDHE-RSA", "aes-256-gcm", "aead", "ECDHE-RSA-AES256-GCM-SHA384", "TLS_ECDHE_RSA_AES_256_GCM_SHA384", false},
	{"TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", false, "ECDHE-RSA", "chacha20-poly1305", "aead", "ECDHE-RSA-CHACHA20-POLY1305", "TLS_ECDHE_RSA_CHACHA20_POLY1305", false},
	{"TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", false, "ECDHE-RSA", "aes-128-cbc", "hmac-sha1", "ECDHE-RSA-AES128-SHA", "TLS_ECDHE_RSA_AES_128_CBC_SHA1", false},
	{"TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", false, "ECDHE-RSA", "aes-256-cbc", "hmac-sha1", "ECDHE-RSA-AES256-SHA", "TLS_ECDHE_RSA_AES_256_CBC_SHA1", false},
	{"TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", false, "ECDHE-RSA", "aes-128-cbc", "hmac-sha256", "ECDHE-RSA-AES128-SHA256", "TLS_ECDHE_RSA_AES_128_CBC_SHA256", false},
	{"TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384", false, "ECDHE-RSA", "aes-256-cbc", "hmac-sha384", "ECDHE-RSA-AES256-SHA384", "TLS_ECDHE_RSA_AES_256_CBC_SHA384", false},
	{"TLS_ECDHE_RSA_WITH_CAMELLIA_128_CBC_SHA256", false, "ECDHE-RSA", "camellia-128-cbc", "hmac-sha256", "ECDHE-RSA-CAMELLIA128-SHA256", "TLS_ECDHE_RSA_CAMELLIA_128_CBC_SHA256", false},
	{"TLS_RSA_WITH_CAMELLIA_128_CBC_SHA", false, "RSA", "camellia-128-cbc", "hmac-sha1", "CAMELLIA128-SHA", "TLS_RSA_CAMELLIA_128_CBC_SHA1", false},
	{"TLS_RSA_WITH_CAMELLIA_256_CBC_SHA", false, "RSA", "camellia-256-cbc", "hmac-sha1", "CAMELLIA256-SHA", "TLS_RSA_CAMELLIA_256_CBC_SHA1", false},
	{"TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA", false, "ECDHE-RSA", "3des-cbc", "hmac-sha1", "ECDHE-RSA-DES-CBC3-SHA", "TLS_ECDHE_RSA_3DES_EDE_CBC_SHA1", true},
	{"TLS_RSA_WITH_3DES_EDE_CBC_SHA", false, "RSA", "3des-cbc", "hmac-sha1", "DES-CBC3-SHA", "TLS_RSA_3DES_EDE_CBC_SHA1", true},
	{"TLS_ECDHE_RSA_WITH_RC4_128_SHA", false, "ECDHE-RSA", "rc4", "hmac-sha1", "ECDHE-RSA-RC4-SHA", "TLS_ECDHE_RSA_ARCFOUR_128_SHA1", true},
	{"TLS_RSA_WITH_RC4_128_SHA", false, "RSA", "rc4", "hmac-sha1", "RC4-SHA", "TLS_RSA_ARCFOUR_128_SHA1", true},
	{"TLS_RSA_WITH_RC4_128_MD5", false, "RSA", "rc4", "hmac-md5", "RC4-MD5", "TLS_RSA_ARCFOUR_128_MD5", true},
}

var groupNames = []string{"x25519", "p256", "p384", "x448", "ffdhe2048"}
var certNames = []string{"rsa2048", "rsa3072", "ecdsa-p256", "ed25519"}

// Go's curve for each group name; x448 and ffdhe2048 it does not have.
var goCurves = map[string]tls.CurveID{"x25519": tls.X25519, "p256": tls.CurveP256, "p384": tls.CurveP384}

func findSuite(name string) *tlsSuite {
	for i := range tlsSuites {
		s := &tlsSuites[i]
		if strings.EqualFold(name, s.iana) || strings.EqualFold(name, s.ossl) || strings.EqualFold(name, s.gnutl) {
			return s
		}
	}
	return nil
}

// goSuiteID: crypto/tls's id of an IANA name (its names are IANA's), and whether it has one.
func goSuiteID(iana string) (uint16, bool) {
	for _, list := range [][]*tls.CipherSuite{tls.CipherSuites(), tls.InsecureCipherSuites()} {
		for _, c := range list {
			if c.Name == iana {
				return c.ID, true
			}
		}
	}
	return 0, false
}

type tlsArgs struct {
	list, handshakes, noTransfer bool
	lib                          string
	suites                       []*tlsSuite
	sizes                        []int
	samples                      int
	minSampleMs                  float64
	cpu                          int
	groups, certs                []string
}

func pickNames(flag, val string, names []string) ([]string, error) {
	var out []string
	for _, t := range strings.Split(val, ",") {
		found := ""
		for _, n := range names {
			if strings.EqualFold(t, n) {
				found = n
			}
		}
		if found == "" {
			return nil, fmt.Errorf("tls: %s: unknown '%s'; valid: %s", flag, t, strings.Join(names, ", "))
		}
		out = append(out, found)
	}
	return out, nil
}

func parseTLSArgs(argv []string) (*tlsArgs, error) {
	a := &tlsArgs{samples: 11, minSampleMs: 2, cpu: -1, sizes: []int{1400, 16384}, groups: groupNames, certs: certNames}
	var lib, suites string
	haveLib := false
	for i := 0; i < len(argv); i++ {
		o := argv[i]
		switch o {
		case "--list":
			a.list = true
			continue
		case "--handshakes":
			a.handshakes = true
			continue
		case "--no-transfer":
			a.noTransfer = true
			continue
		case "--help", "-h":
			return nil, nil
		}
		valued := map[string]bool{"--lib": true, "--suites": true, "--sizes": true, "--groups": true, "--certs": true,
			"--samples": true, "--min-sample-ms": true, "--cpu": true}
		if !valued[o] {
			return nil, fmt.Errorf("tls: unknown option '%s'; valid: --list, --lib, --suites, --sizes, --samples, --min-sample-ms, --cpu, --handshakes, --no-transfer, --groups, --certs", o)
		}
		if i+1 >= len(argv) {
			return nil, fmt.Errorf("tls: option %s needs a value", o)
		}
		i++
		val := argv[i]
		var err error
		switch o {
		case "--lib":
			lib, haveLib = val, true
		case "--suites":
			suites = val
		case "--sizes":
			a.sizes = nil
			for _, t := range strings.Split(val, ",") {
				v, ok := parseUint(t, 16, 1<<20)
				if !ok {
					return nil, fmt.Errorf("tls: --sizes: '%s' is not valid; valid: bytes per application write from 16 to 1048576", t)
				}
				a.sizes = append(a.sizes, v)
			}
		case "--groups":
			a.groups, err = pickNames(o, val, groupNames)
		case "--certs":
			a.certs, err = pickNames(o, val, certNames)
		case "--samples":
			v, ok := parseUint(val, 1, 1000)
			if !ok {
				return nil, fmt.Errorf("tls: --samples: '%s' is not valid; valid: a whole number from 1 to 1000", val)
			}
			a.samples = v
		case "--min-sample-ms":
			d, perr := strconv.ParseFloat(val, 64)
			if perr != nil || !(d >= 0.001 && d <= 10000) {
				return nil, fmt.Errorf("tls: --min-sample-ms: '%s' is not valid; valid: milliseconds from 0.001 to 10000", val)
			}
			a.minSampleMs = d
		case "--cpu":
			v, ok := parseUint(val, 0, 1023)
			if !ok {
				return nil, fmt.Errorf("tls: --cpu: '%s' is not valid; valid: a CPU number from 0 to 1023", val)
			}
			a.cpu = v
		}
		if err != nil {
			return nil, err
		}
	}
	if a.list {
		return a, nil
	}
	if !haveLib {
		return nil, fmt.Errorf("tls: needs --lib; valid: %s", libName)
	}
	if lib != libName {
		return nil, fmt.Errorf("tls: unknown library '%s'; valid: %s", lib, libName)
	}
	a.lib = lib
	if suites == "" || strings.EqualFold(suites, "all") {
		for i := range tlsSuites {
			a.suites = append(a.suites, &tlsSuites[i])
		}
	} else {
		for _, t := range strings.Split(suites, ",") {
			s := findSuite(t)
			if s == nil {
				return nil, fmt.Errorf("tls: --suites: unknown suite '%s'; valid: IANA, OpenSSL or GnuTLS names (see 'cipherbench-core-go tls --list')", t)
			}
			a.suites = append(a.suites, s)
		}
	}
	if a.noTransfer && !a.handshakes {
		return nil, fmt.Errorf("tls: --no-transfer leaves nothing to do; add --handshakes")
	}
	return a, nil
}

// ---- records ----

type suiteRec struct {
	V      int    `json:"v"`
	Type   string `json:"type"`
	Algo   string `json:"algo"`
	Proto  string `json:"proto"`
	Kx     string `json:"kx"`
	Cipher string `json:"cipher"`
	Mac    string `json:"mac"`
	Ossl   string `json:"openssl"`
	Gnutls string `json:"gnutls"`
	Legacy bool   `json:"legacy"`
}

// tlsPointRec: a transfer point is a cipher point (the same fields, in the same order)
// followed by what the connection negotiated.
type tlsPointRec struct {
	pointRec
	Suite string `json:"suite"`
	Proto string `json:"proto"`
	Group string `json:"group"`
	Cert  string `json:"cert"`
}

type handshakeRec struct {
	V        int      `json:"v"`
	Type     string   `json:"type"`
	Lib      string   `json:"lib"`
	Algo     string   `json:"algo"`
	Op       string   `json:"op"`
	Proto    string   `json:"proto"`
	Group    string   `json:"group"`
	Cert     string   `json:"cert"`
	LibGroup string   `json:"lib_group"`
	Iters    uint64   `json:"iters"`
	WallNs   []uint64 `json:"wall_ns"`
	CPUNs    []uint64 `json:"cpu_ns"`
}

type tlsErrorRec struct {
	V       int    `json:"v"`
	Type    string `json:"type"`
	Lib     string `json:"lib"`
	Algo    string `json:"algo"`
	Op      string `json:"op"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
	Group   string `json:"group,omitempty"`
	Cert    string `json:"cert,omitempty"`
}

func tlsError(algo, op, reason, msg, group, cert string) {
	emit(tlsErrorRec{V: protocolVersion, Type: "error", Lib: libName, Algo: algo, Op: op, Reason: reason,
		Message: msg, Group: group, Cert: cert})
}

func protoName(v uint16) string {
	switch v {
	case tls.VersionTLS13:
		return "TLS1.3"
	case tls.VersionTLS12:
		return "TLS1.2"
	}
	return tls.VersionName(v)
}

// ---- certificates: self-signed, CN and DNS name cipherbench.test, made once per run ----

var certCache = map[string]*tls.Certificate{}

func makeCert(kind string) (*tls.Certificate, error) {
	if c := certCache[kind]; c != nil {
		return c, nil
	}
	var key any
	var pub any
	var err error
	switch kind {
	case "rsa2048", "rsa3072":
		bits := 2048
		if kind == "rsa3072" {
			bits = 3072
		}
		var k *rsa.PrivateKey
		k, err = rsa.GenerateKey(rand.Reader, bits)
		key, pub = k, k.Public()
	case "ecdsa-p256":
		var k *ecdsa.PrivateKey
		k, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		key, pub = k, k.Public()
	default:
		var k ed25519.PrivateKey
		pub, k, err = ed25519.GenerateKey(rand.Reader)
		key = k
	}
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: hostName}, DNSNames: []string{hostName},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, pub, key)
	if err != nil {
		return nil, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	c := &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}
	certCache[kind] = c
	return c, nil
}

// configs: a server and a client that trusts exactly the certificate and checks the name.
func configs(cert *tls.Certificate, version uint16, suite uint16, curve tls.CurveID) (*tls.Config, *tls.Config) {
	pool := x509.NewCertPool()
	pool.AddCert(cert.Leaf)
	srv := &tls.Config{Certificates: []tls.Certificate{*cert}, MinVersion: version, MaxVersion: version,
		CurvePreferences: []tls.CurveID{curve}}
	cli := &tls.Config{RootCAs: pool, ServerName: hostName, MinVersion: version, MaxVersion: version,
		CurvePreferences: []tls.CurveID{curve}}
	if version == tls.VersionTLS12 {
		srv.CipherSuites = []uint16{suite}
		cli.CipherSuites = []uint16{suite}
	}
	return srv, cli
}

// connect runs both handshakes (the server's in a goroutine) on a fresh pair.
func connect(srv, cli *tls.Config) (*tls.Conn, *tls.Conn, error) {
	a, b := memConnPair()
	s, c := tls.Server(a, srv), tls.Client(b, cli)
	done := make(chan error, 1)
	go func() { done <- s.Handshake() }()
	cerr := c.Handshake()
	if cerr != nil {
		a.Close() // unblocks the server
	}
	serr := <-done
	if cerr == nil && serr != nil {
		cerr = serr
	}
	if cerr != nil {
		a.Close()
		return nil, nil, cerr
	}
	return s, c, nil
}

// ---- transfer ----

// xferRunner: one write of the server read whole by the client; the first 8 bytes carry
// a counter, checked on arrival.
type xferRunner struct {
	s, c     *tls.Conn
	src, dst []byte
	counter  uint64
}

func (x *xferRunner) run(*msg) status {
	x.counter++
	binary.LittleEndian.PutUint64(x.src, x.counter)
	if _, err := x.s.Write(x.src); err != nil {
		return statusErr
	}
	if _, err := io.ReadFull(x.c, x.dst); err != nil {
		return statusErr
	}
	if binary.LittleEndian.Uint64(x.dst) != x.counter {
		return statusAuth
	}
	return statusOK
}

func transferSize(a *tlsArgs, s *tlsSuite, x *xferRunner, state tls.ConnectionState, size int) bool {
	x.src, x.dst = make([]byte, size), make([]byte, size)
	seed := uint64(tlsSeed) ^ uint64(size)
	corrupt := os.Getenv("CIPHERBENCH_TLS_FAULT") == "corrupt" // a test hook: the check must catch it
	for i := 0; i < verifyWrites; i++ {
		prngFill(&seed, x.src)
		clear(x.dst)
		st := x.run(nil)
		if corrupt && i == verifyWrites-1 {
			x.dst[size/2] ^= 1
		}
		if st != statusOK || !bytes.Equal(x.src, x.dst) {
			what := "arrived changed"
			if st != statusOK {
				what = "was not delivered"
			}
			tlsError(s.iana, "transfer", "run_failed", fmt.Sprintf("size %d: write %d %s", size, i, what), "", "")
			return false
		}
	}
	j := &job{r: x}
	minNs := uint64(a.minSampleMs * 1e6)
	warm := max(uint64(warmNs), 2*minNs)
	iters, st := j.calibrate(warm, minNs)
	wall, cpu := make([]uint64, a.samples), make([]uint64, a.samples)
	for i := 0; st == statusOK && i < a.samples; i++ {
		wall[i], cpu[i], st = j.sample(iters)
		if st == statusOK && !bytes.Equal(x.src, x.dst) { // outside the timed loop: the last write whole
			st = statusAuth
		}
	}
	if st != statusOK {
		what := "the connection failed while timed"
		if st == statusAuth {
			what = "data arrived changed"
		}
		tlsError(s.iana, "transfer", "run_failed", fmt.Sprintf("size %d: %s", size, what), "", "")
		return false
	}
	emit(tlsPointRec{pointRec: pointRec{V: protocolVersion, Type: "point", Lib: libName, Algo: s.iana, Op: "transfer",
		Size: size, Iters: iters, WallNs: wall, CPUNs: cpu}, Suite: tls.CipherSuiteName(state.CipherSuite),
		Proto: protoName(state.Version), Group: groupName(negotiatedCurve(state, transferCurve)), Cert: "rsa2048"})
	return true
}

// transferCurve: the one group a transfer's connection offers (its key exchange is not timed).
const transferCurve = tls.X25519

// groupName: the protocol's name of a curve Go negotiated ("" for none, as with RSA key exchange).
func groupName(c tls.CurveID) string {
	for n, id := range goCurves {
		if id == c {
			return n
		}
	}
	if c == 0 {
		return ""
	}
	return c.String()
}

// transferSuite: every size of one suite. Returns true on a failure (not a refusal).
func transferSuite(a *tlsArgs, s *tlsSuite) bool {
	id, ok := goSuiteID(s.iana)
	if !ok {
		tlsError(s.iana, "transfer", "refused", s.iana+": crypto/tls does not implement this cipher suite", "", "")
		return false
	}
	cert, err := makeCert("rsa2048")
	if err != nil {
		tlsError(s.iana, "transfer", "init_failed", err.Error(), "", "rsa2048")
		return true
	}
	version := uint16(tls.VersionTLS12)
	if s.tls13 {
		version = tls.VersionTLS13
	}
	srv, cli := configs(cert, version, id, transferCurve)
	sc, cc, err := connect(srv, cli)
	if err != nil {
		tlsError(s.iana, "transfer", "refused", s.iana+": "+err.Error(), "", "")
		return false
	}
	defer sc.Close()
	state := cc.ConnectionState()
	got := tls.CipherSuiteName(state.CipherSuite)
	if state.Version != version || got != s.iana {
		if s.tls13 && state.Version == version {
			// crypto/tls has no setting for the TLS 1.3 suite: it picks by AES hardware.
			tlsError(s.iana, "transfer", "refused", fmt.Sprintf("%s: crypto/tls chooses the TLS 1.3 suite itself (no configuration) and chose %s", s.iana, got), "", "")
			return false
		}
		tlsError(s.iana, "transfer", "run_failed", fmt.Sprintf("negotiated %s %s instead of %s", protoName(state.Version), got, s.iana), "", "")
		return true
	}
	x := &xferRunner{s: sc, c: cc}
	for _, size := range a.sizes {
		if !transferSize(a, s, x, state, size) {
			return true
		}
	}
	return false
}

// ---- handshakes ----

type hsRunner struct {
	srv, cli *tls.Config
	resume   bool
}

func (h *hsRunner) run(*msg) status {
	s, c, err := connect(h.srv, h.cli)
	if err != nil {
		return statusErr
	}
	resumed := c.ConnectionState().DidResume
	s.Close()
	if h.resume && !resumed {
		return statusParam
	}
	return statusOK
}

// keepSession: a first handshake whose ticket the client keeps (the ticket is a message
// after the handshake, processed when the client reads).
func keepSession(srv, cli *tls.Config) error {
	s, c, err := connect(srv, cli)
	if err != nil {
		return err
	}
	defer s.Close()
	if _, err := s.Write([]byte{1}); err != nil {
		return err
	}
	_, err = io.ReadFull(c, make([]byte, 1))
	return err
}

func handshakeOne(a *tlsArgs, group, cert string, resume bool) bool {
	op := "handshake"
	if resume {
		op = "resume"
	}
	curve, ok := goCurves[group]
	if !ok {
		tlsError(hsSuite, op, "refused", group+": crypto/tls does not offer this group", group, cert)
		return false
	}
	crt, err := makeCert(cert)
	if err != nil {
		tlsError(hsSuite, op, "init_failed", err.Error(), group, cert)
		return true
	}
	srv, cli := configs(crt, tls.VersionTLS13, 0, curve)
	srv.SessionTicketsDisabled = !resume
	if resume {
		cli.ClientSessionCache = tls.NewLRUClientSessionCache(1)
		if err := keepSession(srv, cli); err != nil {
			tlsError(hsSuite, op, "init_failed", err.Error(), group, cert)
			return true
		}
	}
	// Check once what a timed handshake will do.
	s, c, err := connect(srv, cli)
	if err != nil {
		tlsError(hsSuite, op, "refused", err.Error(), group, cert)
		return false
	}
	state := c.ConnectionState()
	s.Close()
	if got := tls.CipherSuiteName(state.CipherSuite); got != hsSuite {
		tlsError(hsSuite, op, "refused", fmt.Sprintf("crypto/tls chooses the TLS 1.3 suite itself (no configuration) and chose %s", got), group, cert)
		return false
	}
	if state.DidResume != resume {
		tlsError(hsSuite, op, "run_failed", fmt.Sprintf("the handshake %s resumed", map[bool]string{true: "was", false: "was not"}[state.DidResume]), group, cert)
		return true
	}
	j := &job{r: &hsRunner{srv, cli, resume}}
	minNs := uint64(a.minSampleMs * 1e6)
	iters, st := j.calibrate(max(uint64(warmNs), 2*minNs), minNs)
	wall, cpu := make([]uint64, a.samples), make([]uint64, a.samples)
	for i := 0; st == statusOK && i < a.samples; i++ {
		wall[i], cpu[i], st = j.sample(iters)
	}
	if st != statusOK {
		m := "a timed handshake failed"
		if st == statusParam {
			m = "a timed handshake did not resume"
		}
		tlsError(hsSuite, op, "run_failed", m, group, cert)
		return true
	}
	emit(handshakeRec{V: protocolVersion, Type: "handshake", Lib: libName, Algo: hsSuite, Op: op,
		Proto: protoName(state.Version), Group: group, Cert: cert, LibGroup: negotiatedCurve(state, curve).String(),
		Iters: iters, WallNs: wall, CPUNs: cpu})
	return false
}

// handshakes: groups with the default certificate, then certificates with the default
// group, full and resumed (as the C core).
func handshakes(a *tlsArgs) int {
	dc, dg := a.certs[0], a.groups[0]
	for _, c := range a.certs {
		if c == "ecdsa-p256" {
			dc = c
		}
	}
	for _, g := range a.groups {
		if g == "x25519" {
			dg = g
		}
	}
	failures := 0
	for _, resume := range []bool{false, true} {
		for _, g := range a.groups {
			if handshakeOne(a, g, dc, resume) {
				failures++
			}
		}
		for _, c := range a.certs {
			if c != dc && handshakeOne(a, dg, c, resume) {
				failures++
			}
		}
	}
	return failures
}

func tlsLibraryRecord() libraryRec {
	return libraryRec{V: protocolVersion, Type: "library", Lib: libName, Version: strPtr(libVersion())}
}

func cmdTLS(argv []string) int {
	a, err := parseTLSArgs(argv)
	if err != nil {
		return usageError(err)
	}
	if a == nil {
		fmt.Fprint(os.Stderr, tlsUsage)
		return 0
	}
	if a.cpu >= 0 {
		if err := pinCPU(a.cpu); err != nil {
			return usageError(err)
		}
	}
	t0 := wallNs()
	emitPreamble("tls")
	if a.list {
		emit(tlsLibraryRecord())
		for _, s := range tlsSuites {
			proto := "TLS1.2"
			if s.tls13 {
				proto = "TLS1.3"
			}
			emit(suiteRec{V: protocolVersion, Type: "suite", Algo: s.iana, Proto: proto, Kx: s.kx, Cipher: s.cipher,
				Mac: s.mac, Ossl: s.ossl, Gnutls: s.gnutl, Legacy: s.legacy})
		}
		emitEnd(measureFreqHz(), wallNs()-t0)
		return 0
	}
	emit(tlsLibraryRecord())
	failures := 0
	for _, s := range a.suites {
		if !a.noTransfer && transferSuite(a, s) {
			failures++
		}
	}
	if a.handshakes {
		failures += handshakes(a)
	}
	emitEnd(measureFreqHz(), wallNs()-t0)
	if failures > 0 {
		return 1
	}
	return 0
}
