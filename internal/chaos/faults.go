package chaos

// Fault is one way a guard can break (SPEC §25's table).
type Fault string

// The faults, in the grid's column order.
const (
	Baseline           Fault = "baseline"
	DependencyMissing  Fault = "dependency_missing"
	InterpreterMissing Fault = "interpreter_missing"
	Crash              Fault = "crash"
	ExitNoOutput       Fault = "exit_1_no_output"
	Garbage            Fault = "garbage"
	Slow               Fault = "slow"
	Edited             Fault = "edited"
	Unreadable         Fault = "unreadable"
)

// Faults are every fault, baseline first.
var Faults = []Fault{Baseline, DependencyMissing, InterpreterMissing, Crash, ExitNoOutput, Garbage, Slow, Edited, Unreadable}

// Title is the fault's column heading in human output.
func (f Fault) Title() string {
	switch f {
	case DependencyMissing:
		return "dependency missing"
	case InterpreterMissing:
		return "interpreter missing"
	case ExitNoOutput:
		return "exit 1, no output"
	}
	return string(f)
}

// Cell is how the agent judges a hook's run under a fault.
type Cell string

// Cells.
const (
	Block Cell = "block"
	Allow Cell = "allow"
	NA    Cell = "n/a"
)
