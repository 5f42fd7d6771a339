// Package edit changes a YAML file the way a careful person would by hand:
// it adds an item to a list at a key path, or removes items from lists,
// and leaves every other byte of the file as it was — comments, blank
// lines, key order, quoting, indentation, line ends.
//
// It works on the original text: yaml.v3 gives the position of each node,
// the change is made as a few splices of the bytes, and the result is
// checked before it is returned: it must parse, mean exactly the old
// document plus the intended change, and keep every line it did not touch
// byte for byte. A file is never re-marshalled.
//
// The package knows YAML documents, not what they configure: callers say
// which key path and which fields.
package edit
