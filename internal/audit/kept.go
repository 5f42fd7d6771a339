package audit

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"slices"

	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/regfile"
)

// SPEC §24 item 5: refusals, blocks and failures of fail-closed hooks
// outlive ordinary runs. Such a line is written to the log and, in the
// same locked append, to a kept file of its own, rotated at
// KeptRotateSize (one older file kept, like the log's). A burst of
// ordinary runs rotates the log, never the kept file; ReadAll gives back
// the kept lines the log has lost, before the log's own.

// KeptRotateSize is the size past which the kept file is rotated. Lines
// are capped (cap.go), so it holds thousands of refusals.
const KeptRotateSize = 4 << 20

// KeptPath is the kept file beside the log at path.
func KeptPath(path string) string {
	return path[:len(path)-len(".jsonl")] + "-kept.jsonl"
}

// mustKeep reports whether the record outlives ordinary runs: a refusal,
// a block, or a failure (spawn error, timeout, non-zero exit, signal) of
// a hook that fails closed. Judged from the record itself, as Outcome
// judges a line read back, without parsing the line (the guard's path).
func mustKeep(r Record) bool {
	switch {
	case r.Status == StatusRefused:
		return true
	case r.Status == StatusSkipped || r.Interrupted:
		return false
	case r.AnswerKind == OutcomeBlock || r.AnswerKind == "deny" || r.AnswerKind == "" && answerBlocks(r.Answer):
		return true
	}
	failed := r.Result.TimedOut || r.Result.Err != "" || r.Error != "" || r.Signal != 0 ||
		r.Result.ExitCode != nil && *r.Result.ExitCode != 0
	return failed && r.FailClosed
}

// answerBlocks reports whether a parsed answer blocks, as Outcome reads
// it back.
func answerBlocks(v any) bool {
	if w, ok := v.(wirer); ok {
		v = w.Wire()
	}
	o, ok := v.(*pyjson.Object)
	if !ok || o == nil {
		return false
	}
	a, _ := o.Get("action")
	return a == "block"
}

// keptLines reads the kept files of the log at path (older first): their
// lines as stored, and how many could not be read.
func keptLines(path string) (lines [][]byte, err error) {
	kept := KeptPath(path)
	for _, p := range []string{RotatedPath(kept), kept} {
		f, err := regfile.Open(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), 64<<20)
		for sc.Scan() {
			if len(bytes.TrimSpace(sc.Bytes())) > 0 {
				lines = append(lines, bytes.Clone(sc.Bytes()))
			}
		}
		f.Close()
	}
	return lines, nil
}

// lostKept is the kept lines no longer in the log's files: those before
// the first kept line the log still holds (both were appended in the same
// order, and the log holds a suffix of its history).
func lostKept(kept [][]byte, files []*os.File) [][]byte {
	if len(kept) == 0 {
		return nil
	}
	index := make(map[string]int, len(kept))
	for i, l := range kept {
		if _, dup := index[string(l)]; !dup {
			index[string(l)] = i
		}
	}
	for _, f := range files {
		r := bufio.NewReaderSize(f, 64<<10)
		for {
			line, err := r.ReadSlice('\n')
			for err == bufio.ErrBufferFull {
				// A line longer than the buffer is no kept line (they are
				// capped): skip to its end.
				_, err = r.ReadSlice('\n')
				line = nil
			}
			if i, ok := index[string(bytes.TrimSuffix(line, []byte{'\n'}))]; ok && len(line) > 0 {
				rewind(files)
				return kept[:i]
			}
			if err != nil {
				break
			}
		}
	}
	rewind(files)
	return kept
}

func rewind(files []*os.File) {
	for _, f := range files {
		f.Seek(0, io.SeekStart)
	}
}

// hasID reports whether the log at path (either file) holds a line of the
// firing id.
func hasID(path, id string) bool {
	needle := []byte(`"id":"` + id + `"`)
	return slices.ContainsFunc([]string{path, RotatedPath(path)}, func(p string) bool {
		return fileContains(p, needle)
	})
}

// fileContains reports whether the file at path holds needle.
func fileContains(path string, needle []byte) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	keep := 0
	for {
		n, err := f.Read(buf[keep:])
		total := keep + n
		if bytes.Contains(buf[:total], needle) {
			return true
		}
		if err != nil || n == 0 {
			return false
		}
		// Keep the tail a needle may straddle.
		keep = min(len(needle)-1, total)
		copy(buf, buf[total-keep:total])
	}
}

// appendUnlocked appends e in one write, without the lock (a writer that
// waited AppendWait's whole wait): a line that starts on a new line, since
// a locked writer may be mid-way.
func appendUnlocked(path string, e Entry) error {
	for _, p := range []string{path, KeptPath(path)} {
		if p != path && !e.Kept {
			break
		}
		f, err := openLog(p)
		if err != nil {
			return err
		}
		line := e.Line
		if fi, err := f.Stat(); err == nil && fi.Size() > 0 && !endsInNewline(f, fi.Size()) {
			line = append([]byte{'\n'}, line...)
		}
		_, err = f.Write(line)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
