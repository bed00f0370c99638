package canonical

import "reflect"

// MapTemplates is a deep copy of c in which every template of the command
// itself has been replaced by fn's result. The bodies of runFlow, repeat
// and retry are copied as they are: their commands run as steps of their
// own, so what one run resolved belongs to those steps. c is not changed.
//
// It walks the command by reflection rather than per kind so a field
// added to any command is covered without touching this function; a
// hand-written switch would silently copy the new field's template
// unmapped.
func MapTemplates(c Command, fn func(Template) Template) Command {
	if c == nil {
		return nil
	}
	if fn == nil {
		fn = func(t Template) Template { return t }
	}
	return copyMapped(reflect.ValueOf(c), fn).Interface().(Command)
}

var (
	templateType = reflect.TypeOf(Template{})
	commandType  = reflect.TypeOf((*Command)(nil)).Elem()
)

// copyMapped deep-copies v, mapping its templates. A nested Command (one
// of a body) is shared, not copied: commands are never changed in place.
func copyMapped(v reflect.Value, fn func(Template) Template) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(copyMapped(v.Elem(), fn))
		return p
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		if v.Type() == commandType {
			return v
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(copyMapped(v.Elem(), fn))
		return out
	case reflect.Struct:
		if v.Type() == templateType {
			return reflect.ValueOf(fn(v.Interface().(Template)))
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(v) // unexported fields, if any, are copied as they are
		for i := 0; i < v.NumField(); i++ {
			if !out.Field(i).CanSet() {
				continue
			}
			out.Field(i).Set(copyMapped(v.Field(i), fn))
		}
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		if v.Type().Elem() == commandType {
			return v // a body: its commands are steps of their own
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			out.Index(i).Set(copyMapped(v.Index(i), fn))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		iter := v.MapRange()
		for iter.Next() {
			out.SetMapIndex(iter.Key(), copyMapped(iter.Value(), fn))
		}
		return out
	case reflect.Array:
		out := reflect.New(v.Type()).Elem()
		for i := 0; i < v.Len(); i++ {
			out.Index(i).Set(copyMapped(v.Index(i), fn))
		}
		return out
	}
	return v
}
