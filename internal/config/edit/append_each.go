package edit

import (
	"errors"
)

// An Append is one list to append items to (see Doc.Append).
type Append struct {
	Path  []string
	Items [][]Field
}

// AppendEach appends to several lists of one document in a single edit
// and a single check of the result, so adding thousands of hooks over
// several events costs one parse and one check, not one per event. The
// lists must not share a path. When the edits cannot be made side by side
// (two of them create the same parent key), it makes them one after
// another instead.
func (d *Doc) AppendEach(adds []Append) ([]byte, error) {
	if len(adds) == 0 {
		return nil, errors.New("edit: AppendEach needs at least one list")
	}
	var sp []splice
	for _, a := range adds {
		if len(a.Path) == 0 || len(a.Items) == 0 {
			return nil, errors.New("edit: Append needs a path and at least one field")
		}
		s, err := d.appendSplices(a.Path, a.Items)
		if err != nil {
			return nil, err
		}
		sp = append(sp, s...)
	}
	out, err := d.finish(mergeInserts(sp), func(old any) (any, error) {
		v := old
		for _, a := range adds {
			var err error
			if v, err = appendValue(v, a.Path, a.Items); err != nil {
				return nil, err
			}
		}
		return v, nil
	})
	var unsafe *UnsafeError
	if err == nil || !errors.As(err, &unsafe) {
		return out, err
	}
	return d.appendInTurn(adds)
}

// appendInTurn makes each append on the result of the one before.
func (d *Doc) appendInTurn(adds []Append) ([]byte, error) {
	cur := d
	var out []byte
	for i, a := range adds {
		if i > 0 {
			var err error
			if cur, err = Parse(out); err != nil {
				return nil, err
			}
		}
		var err error
		if out, err = cur.AppendAll(a.Path, a.Items); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// mergeInserts joins insertions at the same offset into one, in the order
// given, so their order in the file does not depend on sorting.
func mergeInserts(sp []splice) []splice {
	var out []splice
	at := map[int]int{}
	for _, s := range sp {
		if s.start == s.end {
			if i, ok := at[s.start]; ok {
				out[i].text += s.text
				continue
			}
			at[s.start] = len(out)
		}
		out = append(out, s)
	}
	return out
}
