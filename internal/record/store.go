package record

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hermes-hooks/hermes/internal/audit"
	"github.com/hermes-hooks/hermes/internal/filelock"
	"github.com/hermes-hooks/hermes/internal/fileowner"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/regfile"
)

// Dir is the store of a home: one file per recorded firing.
func Dir(home string) string { return filepath.Join(home, "logs", "payloads") }

// MaxPayload is the largest payload kept whole; a larger one is kept cut
// (SPEC §26).
const MaxPayload = 1 << 20

// LockTimeout bounds the wait for another writer: a writer holds the lock
// for one small write, so a longer wait means a stopped process, and the
// recording is given up rather than the agent kept waiting.
const LockTimeout = 10 * time.Second

// Store is the folder of payload files and its bound.
type Store struct {
	Dir string
	Max int64 // bytes in all; the oldest files are removed past it
}

// Open is the store of home bounded by max.
func Open(home string, max int64) Store { return Store{Dir: Dir(home), Max: max} }

// Path is the file of the firing id.
func (st Store) Path(id string) string { return filepath.Join(st.Dir, id+".json") }

// Files kept in the store's folder beside the payloads.
const (
	lockName = ".lock"
	sizeName = ".size" // the payloads' total size, kept so a write need not list the folder
)

// Save redacts a firing's wire payload, cuts it when it is over
// MaxPayload, and stores it as the firing id.
func (st Store) Save(id string, wire []byte, s Secrets) error {
	return st.Put(id, Cut(Redact(wire, s), len(wire)))
}

// Cut is data, or, when it is over MaxPayload, the marker SPEC §26 names:
// {"truncated": true, "bytes": N, "head": "<its first 1 MiB>"}, N being
// the size of the payload as it came.
func Cut(data []byte, n int) []byte {
	if len(data) <= MaxPayload {
		return data
	}
	head := data[:MaxPayload]
	// Cut on a character boundary: head is a string of the marker.
	for i := 0; i < 4 && len(head) > 0 && !utf8Start(data[len(head)]); i++ {
		head = head[:len(head)-1]
	}
	o := pyjson.NewObject().Set("truncated", true).Set("bytes", n).Set("head", string(head))
	return pyjson.Marshal(o, pyjson.Options{})
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// Put stores data as the file of id (0600, owned as its folder when root
// writes it: SPEC §13.2 rule 8), then removes the oldest files while the
// store holds more than Max. Writers take the store's lock one at a time.
func (st Store) Put(id string, data []byte) error {
	if !ValidID(id) {
		return fmt.Errorf("payload store: %q is not a firing id", id)
	}
	if err := audit.MakeDir(filepath.Dir(st.Dir)); err != nil {
		return fmt.Errorf("payload store: %w", err)
	}
	if err := audit.MakeDir(st.Dir); err != nil {
		return fmt.Errorf("payload store: %w", err)
	}
	unlock, err := filelock.Lock(filepath.Join(st.Dir, lockName), filelock.Wait{Timeout: LockTimeout})
	if err != nil {
		return fmt.Errorf("payload store: %w", err)
	}
	defer unlock()
	if err := writeNew(st.Path(id), data); err != nil {
		return fmt.Errorf("payload store: %w", err)
	}
	total, ok := st.readSize()
	if !ok {
		// First write, or the count was lost: count what is there
		// (the new file included).
		total = -1
	} else {
		total += int64(len(data))
	}
	// A count can fall short (a writer stopped between its file and its
	// count): about one write in 256, chosen by the random id, counts again.
	if total < 0 || total > st.Max || strings.HasPrefix(id, "00") {
		if total, err = st.evict(); err != nil {
			return fmt.Errorf("payload store: %w", err)
		}
	}
	return st.writeSize(total)
}

// evict lists the store, removes the oldest payloads until it holds at
// most 7/8 of Max (so that a full store is not listed again on the very
// next write), and returns what is left. A store under Max is only
// counted.
func (st Store) evict() (int64, error) {
	files, total, err := st.list()
	if err != nil {
		return 0, err
	}
	if total <= st.Max {
		return total, nil
	}
	st.sweep()
	low := st.Max - st.Max/8
	for _, f := range files {
		if total <= low {
			break
		}
		if err := os.Remove(filepath.Join(st.Dir, f.name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return 0, err
		}
		total -= f.size
	}
	return total, nil
}

// staleTemp is the age past which a temporary file is a writer's that
// was killed mid-write (the agent's timeout kills the guard's group).
const staleTemp = 10 * time.Minute

// sweep removes the temporary files of writers killed mid-write.
func (st Store) sweep() {
	tmps, _ := filepath.Glob(filepath.Join(st.Dir, ".tmp-*"))
	for _, p := range tmps {
		if fi, err := os.Lstat(p); err == nil && time.Since(fi.ModTime()) > staleTemp {
			os.Remove(p)
		}
	}
}

type stored struct {
	name  string
	size  int64
	mtime time.Time
}

// list is the payload files, oldest first, and their total size.
func (st Store) list() ([]stored, int64, error) {
	entries, err := os.ReadDir(st.Dir)
	if err != nil {
		return nil, 0, err
	}
	var files []stored
	var total int64
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".json") || !ValidID(strings.TrimSuffix(name, ".json")) {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		files = append(files, stored{name, fi.Size(), fi.ModTime()})
		total += fi.Size()
	}
	sort.Slice(files, func(i, j int) bool {
		if !files[i].mtime.Equal(files[j].mtime) {
			return files[i].mtime.Before(files[j].mtime)
		}
		return files[i].name < files[j].name
	})
	return files, total, nil
}

func (st Store) readSize() (int64, bool) {
	b, err := os.ReadFile(filepath.Join(st.Dir, sizeName))
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return n, err == nil && n >= 0
}

func (st Store) writeSize(n int64) error {
	return writeFile(filepath.Join(st.Dir, sizeName), []byte(strconv.FormatInt(n, 10)+"\n"), os.O_TRUNC)
}

// Usage is how many payloads the store holds and their size in bytes (0,
// 0 when there is no store).
func (st Store) Usage() (files int, bytes int64, err error) {
	list, total, err := st.list()
	if errors.Is(err, os.ErrNotExist) {
		return 0, 0, nil
	}
	return len(list), total, err
}

// Read is the stored payload of id.
func (st Store) Read(id string) ([]byte, error) {
	if !ValidID(id) {
		return nil, fmt.Errorf("%q is not a firing id", id)
	}
	f, err := regfile.Open(st.Path(id))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// A cut payload's head is at most 6 MiB once escaped as JSON.
	return io.ReadAll(io.LimitReader(f, 8*MaxPayload))
}

// writeNew writes data to a new file at path by a rename, so a reader
// never sees half a payload.
func writeNew(path string, data []byte) error {
	tmp := filepath.Join(filepath.Dir(path), ".tmp-"+filepath.Base(path))
	if err := writeFile(tmp, data, os.O_EXCL); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// writeFile writes data to path, created 0600 and owned like its folder.
func writeFile(path string, data []byte, flag int) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|flag|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return err
	}
	fileowner.LikeParent(path)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
