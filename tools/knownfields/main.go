// Command knownfields writes, as JSON, the field names the Kubernetes API server knows for every
// kind podgroup-plan reads: the tree of JSON field names of the Go API types (k8s.io/api),
// walked by reflection as the apiserver's strict decoding walks them (sigs.k8s.io/json's
// DisallowUnknownFields: a field is known when a struct field's json tag names it; inline
// structs add their fields to the parent).
//
// One run per k8s.io/api version (the kinds of one version are in kinds_*.go, chosen by build
// tag with its own go.mod): tools/knownfields/generate.sh runs them and
// podgroup_plan/loading/known_fields_gen.py turns their output into the Python module.
package main

import (
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"strings"
)

// Types whose JSON is not a struct's fields: anything goes inside (a Quantity is a string, a
// Time a string, RawExtension and FieldsV1 any JSON).
var leaf = map[string]bool{
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time":       true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":  true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.Duration":   true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1":   true,
	"k8s.io/apimachinery/pkg/api/resource.Quantity":   true,
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString": true,
	"k8s.io/apimachinery/pkg/runtime.RawExtension":    true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.Fields":     true,
}

type output struct {
	Kinds map[string]string            `json:"kinds"` // "apiVersion/Kind" -> type
	Types map[string]map[string]string `json:"types"` // type -> field -> "" | T | []T | {}T
}

func name(t reflect.Type) string {
	p := t.PkgPath()
	p = strings.TrimPrefix(p, "k8s.io/api/")
	p = strings.TrimPrefix(p, "k8s.io/apimachinery/pkg/apis/")
	return p + "." + t.Name()
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

func isStruct(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && !leaf[t.PkgPath()+"."+t.Name()]
}

func (o *output) add(t reflect.Type) string {
	n := name(t)
	if _, seen := o.Types[n]; seen {
		return n
	}
	fields := map[string]string{}
	o.Types[n] = fields
	o.fields(t, fields)
	return n
}

func (o *output) fields(t reflect.Type, fields map[string]string) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		jsonName := strings.Split(tag, ",")[0]
		ft := deref(f.Type)
		if jsonName == "" && (f.Anonymous || strings.Contains(tag, "inline")) && isStruct(ft) {
			o.fields(ft, fields) // inline: its fields are the parent's
			continue
		}
		if !f.IsExported() {
			continue
		}
		if jsonName == "" {
			jsonName = f.Name // encoding/json's default
		}
		fields[jsonName] = o.kindOf(ft)
	}
}

func (o *output) kindOf(t reflect.Type) string {
	switch {
	case isStruct(t):
		return o.add(t)
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		if e := deref(t.Elem()); isStruct(e) {
			return "[]" + o.add(e)
		}
	case t.Kind() == reflect.Map:
		if e := deref(t.Elem()); isStruct(e) {
			return "{}" + o.add(e)
		}
	}
	return ""
}

func main() {
	o := &output{Kinds: map[string]string{}, Types: map[string]map[string]string{}}
	kinds := map[string]any{}
	for k, v := range coreKinds {
		kinds[k] = v
	}
	for k, v := range versionKinds {
		kinds[k] = v
	}
	keys := make([]string, 0, len(kinds))
	for k := range kinds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		o.Kinds[k] = o.add(reflect.TypeOf(kinds[k]))
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(o); err != nil {
		panic(err)
	}
}
