// SPDX-License-Identifier: GPL-3.0-or-later
// vectors.go - reads the known-answer files of vectors/ (vectors/README.md), as the C
// core's vectors.c does: a directory's *.json in name order, then its extra/ (rows only
// these cores have), then its invalid/ (must-fail cases); a malformed file given alone is
// an error, in a directory it is left out and said.
package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
)

const vectorFormat = "cipherbench-vectors/1"
const maxVectorFile = 16 << 20
const maxRepeated = 64 << 20

// bytesField is one hex field of a vector; present tells an empty string from an absent one.
type bytesField struct {
	b       []byte
	present bool
}

type vector struct {
	name                                    string
	key, iv, aad, pt, ct, tag, msg, md, mac bytesField
	invalid                                 bool // must be refused (vectors/README.md, "Invalid vectors")
}

type vecFile struct {
	path, source string
	alg          *algorithm
	v            []vector
}

// vecSet is what a vectors path gave: usable files, broken ones (said on stderr and, in
// kat, failures), and files for algorithms this core does not have (not read further).
type vecSet struct {
	files []vecFile
	bad   []string
}

// vectorsPath: --vectors, else $CIPHERBENCH_VECTORS, else the source tree's vectors/.
func vectorsPath(arg string) string {
	if arg != "" {
		return arg
	}
	if env := os.Getenv("CIPHERBENCH_VECTORS"); env != "" {
		return env
	}
	return defaultVectorsDir()
}

type errUnknownAlgo struct{ msg string }

func (e errUnknownAlgo) Error() string { return e.msg }

func parseHex(raw map[string]json.RawMessage, k string) (bytesField, error) {
	v, ok := raw[k]
	if !ok {
		return bytesField{}, nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return bytesField{}, err
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return bytesField{}, err
	}
	return bytesField{b, true}, nil
}

func parseVector(jv json.RawMessage, alg *algorithm, idx int, path string) (vector, error) {
	var v vector
	v.name = fmt.Sprintf("#%d", idx+1)
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(jv, &raw); err != nil || raw == nil {
		return v, fmt.Errorf("vectors: %s: vector %s is not an object", path, v.name)
	}
	if n, ok := raw["name"]; ok {
		var s string
		if json.Unmarshal(n, &s) == nil {
			v.name = s
		}
	}
	fields := []string{"key", "iv", "aad", "pt", "ct", "tag", "msg", "md", "mac"}
	dst := []*bytesField{&v.key, &v.iv, &v.aad, &v.pt, &v.ct, &v.tag, &v.msg, &v.md, &v.mac}
	for i, f := range fields {
		b, err := parseHex(raw, f)
		if err != nil {
			return v, fmt.Errorf("vectors: %s: vector %s: field \"%s\" is not a hex string", path, v.name, f)
		}
		*dst[i] = b
	}
	if res, ok := raw["result"]; ok {
		var r, e string
		if json.Unmarshal(res, &r) != nil || (r != "valid" && r != "invalid") {
			return v, fmt.Errorf("vectors: %s: vector %s: \"result\" must be \"valid\" or \"invalid\"", path, v.name)
		}
		v.invalid = r == "invalid"
		if v.invalid && alg.kind != kindAEAD && alg.kind != kindMAC {
			return v, fmt.Errorf("vectors: %s: vector %s: only AEAD and MAC vectors can be invalid", path, v.name)
		}
		if v.invalid && (json.Unmarshal(raw["expect"], &e) != nil || e != "auth_failure") {
			return v, fmt.Errorf("vectors: %s: vector %s: an invalid vector needs \"expect\": \"auth_failure\"", path, v.name)
		}
	}
	var need []string
	switch alg.kind {
	case kindAEAD:
		need = []string{"key", "iv", "ct", "tag"}
		if !v.invalid { // an invalid one has no plaintext to give
			need = append(need, "pt")
		}
	case kindCipher:
		need = []string{"key", "pt", "ct"}
		if alg.ivLen > 0 {
			need = append(need, "iv")
		}
	case kindHash:
		need = []string{"msg", "md"}
	case kindMAC:
		need = []string{"key", "msg", "mac"}
		if alg.perMessageNonce {
			need = append(need, "iv")
		}
	}
	for _, k := range need {
		for i, f := range fields {
			if f == k && !dst[i].present {
				return v, fmt.Errorf("vectors: %s: vector %s lacks \"%s\" (needed for a %s)", path, v.name, k, alg.kind)
			}
		}
	}
	if ((alg.kind == kindAEAD && !v.invalid) || alg.kind == kindCipher) && len(v.pt.b) != len(v.ct.b) {
		return v, fmt.Errorf("vectors: %s: vector %s: pt and ct differ in length", path, v.name)
	}
	if rep, ok := raw["repeat"]; ok {
		var r float64
		err := json.Unmarshal(rep, &r)
		if err != nil || r < 1 || r != math.Trunc(r) || !v.msg.present || float64(len(v.msg.b))*r > maxRepeated {
			return v, fmt.Errorf("vectors: %s: vector %s: \"repeat\" must be a whole number >= 1 applied to msg (at most 64 MiB in all)", path, v.name)
		}
		full := make([]byte, 0, len(v.msg.b)*int(r))
		for i := 0; i < int(r); i++ {
			full = append(full, v.msg.b...)
		}
		v.msg.b = full
	}
	return v, nil
}

// loadFile reads one file; errUnknownAlgo when this core has no row for its algorithm.
func loadFile(path string, rows []row) (*vecFile, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("vectors: cannot open %s", path)
	}
	if st.Size() > maxVectorFile {
		return nil, fmt.Errorf("vectors: %s is too large (at most 16 MiB)", path)
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("vectors: cannot read %s", path)
	}
	var doc struct {
		Format  *string           `json:"format"`
		Algo    *string           `json:"algo"`
		Source  *string           `json:"source"`
		Vectors []json.RawMessage `json:"vectors"`
	}
	var raw map[string]json.RawMessage
	if json.Unmarshal(text, &raw) != nil || raw == nil {
		return nil, fmt.Errorf("vectors: %s is not valid JSON", path)
	}
	_ = json.Unmarshal(raw["format"], &doc.Format)
	_ = json.Unmarshal(raw["algo"], &doc.Algo)
	_ = json.Unmarshal(raw["source"], &doc.Source)
	vecErr := json.Unmarshal(raw["vectors"], &doc.Vectors)
	if doc.Format == nil || *doc.Format != vectorFormat {
		return nil, fmt.Errorf("vectors: %s: \"format\" must be \"%s\"", path, vectorFormat)
	}
	if doc.Algo == nil {
		return nil, fmt.Errorf("vectors: %s: \"algo\" must be a string", path)
	}
	r := findRow(rows, *doc.Algo)
	if r == nil {
		return nil, errUnknownAlgo{fmt.Sprintf("vectors: %s: algorithm \"%.64s\" is not one this core measures", path, *doc.Algo)}
	}
	if vecErr != nil || len(doc.Vectors) == 0 {
		return nil, fmt.Errorf("vectors: %s: \"vectors\" must be a non-empty array", path)
	}
	f := &vecFile{path: path, alg: &r.alg}
	if doc.Source != nil {
		f.source = *doc.Source
	}
	for i, jv := range doc.Vectors {
		v, err := parseVector(jv, &r.alg, i, path)
		if err != nil {
			return nil, err
		}
		f.v = append(f.v, v)
	}
	return f, nil
}

func jsonFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		n := e.Name()
		if len(n) >= 6 && filepath.Ext(n) == ".json" && n[0] != '.' && !e.IsDir() {
			names = append(names, filepath.Join(dir, n))
		}
	}
	sort.Strings(names)
	return names, nil
}

// loadVectors reads a file or a directory (and its extra/, then the must-fail cases of its
// invalid/). An error is a usage error.
func loadVectors(path string, rows []row) (*vecSet, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("vectors: %s does not exist (give a file or directory with --vectors)", path)
	}
	set := &vecSet{}
	if !st.IsDir() {
		f, err := loadFile(path, rows)
		if _, unknown := err.(errUnknownAlgo); unknown {
			return set, nil // a known file of an algorithm another core measures
		}
		if err != nil {
			return nil, err
		}
		set.files = append(set.files, *f)
		return set, nil
	}
	names, err := jsonFiles(path)
	if err != nil {
		return nil, fmt.Errorf("vectors: cannot read directory %s", path)
	}
	for _, sub := range []string{"extra", "invalid"} {
		if more, err := jsonFiles(filepath.Join(path, sub)); err == nil {
			names = append(names, more...)
		}
	}
	for _, n := range names {
		f, err := loadFile(n, rows)
		switch err.(type) {
		case nil:
			set.files = append(set.files, *f)
		case errUnknownAlgo:
			// vectors for another core's rows: not this core's business
		default:
			set.bad = append(set.bad, err.Error())
		}
	}
	return set, nil
}

func findRow(rows []row, name string) *row {
	for i := range rows {
		if rows[i].alg.name == name {
			return &rows[i]
		}
	}
	return nil
}
