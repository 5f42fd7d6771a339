package doctor

import (
	"github.com/hermes-hooks/hermes/internal/record"
)

// RecordingReport is what doctor says of payload recording (SPEC §26):
// whether it is on, the bound, and what the store holds.
type RecordingReport struct {
	On         bool   `json:"on"`
	MaxBytes   int64  `json:"max_bytes"`
	Payloads   int    `json:"payloads"`
	Bytes      int64  `json:"bytes"`
	Folder     string `json:"folder"`
	MaxProblem string `json:"max_problem,omitempty"`
	// Err is why the store could not be read ("" when it could).
	Err string `json:"error,omitempty"`
}

// Recording reports on recording for the home whose config is at
// configPath, nil when it is off and nothing is stored: there is nothing
// to say then.
func Recording(home, configPath string, getenv func(string) string) *RecordingReport {
	s := record.LoadPath(configPath, getenv)
	st := record.Open(home, s.Max)
	files, bytes, err := st.Usage()
	if !s.On && files == 0 && err == nil {
		return nil
	}
	r := &RecordingReport{On: s.On, MaxBytes: s.Max, Payloads: files, Bytes: bytes, Folder: st.Dir, MaxProblem: s.MaxProblem}
	if err != nil {
		r.Err = err.Error()
	}
	return r
}
