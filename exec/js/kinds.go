package js

import (
	"math"
	"reflect"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/token"
	"github.com/dop251/goja/unistring"
)

// Rhino numbers
//
// Maestro turns the value of a ${...} into text with Kotlin's toString() of
// the Java object Rhino returned, and Rhino (1.7.14, compiled at Maestro's
// default optimization level 0) returns numbers as two Java types:
//
//   - java.lang.Integer (or Long), printed as digits: integer literals in
//     int range other than 0, 1 and -1 (Codegen.pushNumberAsObject boxes
//     those three as the shared Doubles OptRuntime.zeroObj, oneObj and
//     minusOneObj), after Rhino's constant folding of + - * / and unary -
//     and ~ on literals (IRFactory), so ${1+2} is "3" and ${2-1} is "1.0";
//     whole numbers JSON.parse reads (JsonParser.readNumber); string length,
//     indexOf, lastIndexOf, charCodeAt, search; array indexOf (a Long); an
//     http response's status.
//   - java.lang.Double, printed by Double.toString: everything computed
//     (arithmetic, ++, parseInt, parseFloat, Number(), Math.*, Date values,
//     array length and push), so ${parseInt('1')} is "1.0" (Maestro's
//     RhinoJsEngineTest "parseInt returns a double representation") and
//     ${parseInt(A) + parseInt(B)} is "3.0" (IntegrationTest "Case 063 -
//     Javascript injection"); also non-whole numbers and any number outside
//     int range ("1.712345678901E12").
//
// goja keeps no such distinction, so flow works out which one Rhino would
// have returned from the code: the ${...} body's last expression is
// classified statically (classifier.of); the variables and output
// properties flows keep numbers in (output.x, variables of ${...} and
// evalScript, flow variables a script assigns) by a record the program
// keeps as it assigns them (Engine.kinds, filled by __flowKind); a
// script's own variables by what all of the script's assignments to them
// assign. A number whose origin is unknown prints as the value suggests:
// digits when it is a whole number in int range (what JSON and most
// natives give), Java's double form otherwise.

// numKind is what is known about the Java type of a number.
type numKind uint8

const (
	kindValue  numKind = iota // unknown: decided by the value
	kindDouble                // a java.lang.Double
	kindRef                   // whatever the record says for key
	kindLength                // x.length: a Double for arrays
)

// kindOf is the kind of an expression's value.
type kindOf struct {
	k   numKind
	key string // kindRef: the record's key ("name" or "output.name")
}

// kindRecord is a number a program assigned to a name or output property,
// and whether it was a Double. It holds as long as the value does.
type kindRecord struct {
	double bool
	value  float64
}

// Names of the natives the instrumented code calls; the scope object
// resolves them through the global object.
const (
	kindFn       = "__flowKind"
	lengthFn     = "__flowLength"
	lengthNoteFn = "__flowLengthNote"
)

// classifier classifies expressions of one program. locals are the names
// the program itself assigns, with every value assigned to them; declared
// the names it declares (var, let, const, parameters, functions, classes,
// catch and for-in/of bindings).
type classifier struct {
	locals   map[string][]ast.Expression
	declared map[string]bool
	visiting map[string]bool
	// persistent is set for a ${...} or evalScript body, whose variables
	// outlive it: every assignment to a name is recorded as it runs.
	persistent bool
}

func newClassifier(prog ast.Node, persistent bool) *classifier {
	c := &classifier{locals: map[string][]ast.Expression{}, declared: map[string]bool{},
		visiting: map[string]bool{}, persistent: persistent}
	walkAST(reflect.ValueOf(prog), func(n any) {
		switch n := n.(type) {
		case *ast.Binding:
			bindingNames(n.Target, func(name string) { c.declared[name] = true })
			if id, ok := n.Target.(*ast.Identifier); ok {
				c.locals[id.Name.String()] = append(c.locals[id.Name.String()], n.Initializer)
			}
		case *ast.AssignExpression:
			if id, ok := n.Left.(*ast.Identifier); ok {
				var v ast.Expression = n
				if n.Operator == token.ASSIGN {
					v = n.Right
				}
				c.locals[id.Name.String()] = append(c.locals[id.Name.String()], v)
			}
		case *ast.UnaryExpression:
			if id, ok := n.Operand.(*ast.Identifier); ok && isUpdate(n.Operator) {
				c.locals[id.Name.String()] = append(c.locals[id.Name.String()], n)
			}
		case *ast.ForInStatement, *ast.ForOfStatement, *ast.CatchStatement, *ast.FunctionDeclaration, *ast.ClassDeclaration:
			// Bindings these make are strings, values of any kind, or
			// not numbers: they count as unknown.
			for _, name := range boundNames(n) {
				c.locals[name] = append(c.locals[name], nil)
				c.declared[name] = true
			}
		}
	}, map[uintptr]bool{})
	return c
}

func isUpdate(t token.Token) bool { return t == token.INCREMENT || t == token.DECREMENT }

// boundNames are the identifiers a for-in/of head, a catch clause or a
// declaration binds.
func boundNames(n any) []string {
	var names []string
	add := func(s string) { names = append(names, s) }
	switch n := n.(type) {
	case *ast.ForInStatement:
		forInto(n.Into, add)
	case *ast.ForOfStatement:
		forInto(n.Into, add)
	case *ast.CatchStatement:
		if n.Parameter != nil {
			bindingNames(n.Parameter, add)
		}
	case *ast.FunctionDeclaration:
		if n.Function != nil && n.Function.Name != nil {
			add(n.Function.Name.Name.String())
		}
	case *ast.ClassDeclaration:
		if n.Class != nil && n.Class.Name != nil {
			add(n.Class.Name.Name.String())
		}
	}
	return names
}

func forInto(into ast.ForInto, add func(string)) {
	switch into := into.(type) {
	case *ast.ForIntoVar:
		if into.Binding != nil {
			bindingNames(into.Binding.Target, add)
		}
	case *ast.ForDeclaration:
		bindingNames(into.Target, add)
	case *ast.ForIntoExpression:
		bindingNames(into.Expression, add)
	}
}

// of classifies e.
func (c *classifier) of(e ast.Expression) kindOf {
	if f, ok := fold(e); ok {
		return literalKind(f)
	}
	switch e := e.(type) {
	case nil:
		return kindOf{}
	case *ast.BinaryExpression:
		switch e.Operator {
		case token.PLUS, token.MINUS, token.MULTIPLY, token.SLASH, token.REMAINDER, token.EXPONENT,
			token.AND, token.OR, token.EXCLUSIVE_OR, token.SHIFT_LEFT, token.SHIFT_RIGHT, token.UNSIGNED_SHIFT_RIGHT:
			return kindOf{k: kindDouble} // ScriptRuntime.add and friends wrap a double
		case token.LOGICAL_AND, token.LOGICAL_OR, token.COALESCE:
			return c.either(c.of(e.Left), c.of(e.Right))
		}
		return kindOf{} // comparisons: booleans
	case *ast.UnaryExpression:
		switch e.Operator {
		case token.MINUS, token.PLUS, token.BITWISE_NOT, token.INCREMENT, token.DECREMENT:
			return kindOf{k: kindDouble}
		}
		return kindOf{}
	case *ast.AssignExpression:
		if e.Operator == token.ASSIGN {
			return c.of(e.Right)
		}
		return kindOf{k: kindDouble}
	case *ast.ConditionalExpression:
		return c.either(c.of(e.Consequent), c.of(e.Alternate))
	case *ast.SequenceExpression:
		if len(e.Sequence) > 0 {
			return c.of(e.Sequence[len(e.Sequence)-1])
		}
	case *ast.Identifier:
		return c.name(e.Name.String())
	case *ast.DotExpression:
		if key, ok := outputKey(e); ok {
			return kindOf{k: kindRef, key: key}
		}
		if e.Identifier.Name == "length" {
			return kindOf{k: kindLength}
		}
	case *ast.BracketExpression:
		if key, ok := outputKey(e); ok {
			return kindOf{k: kindRef, key: key}
		}
	case *ast.CallExpression:
		if doubleCall(e.Callee) {
			return kindOf{k: kindDouble}
		}
	}
	return kindOf{}
}

// either is the kind of a value that is one of two: known only when both
// agree.
func (c *classifier) either(a, b kindOf) kindOf {
	if a == b && a.k != kindLength {
		return a
	}
	return kindOf{}
}

// name classifies a variable: by the record of the assignments made to it
// as they run, when the program keeps one for the name (see recorded);
// otherwise, for a script's own variable, by all the assignments the
// script makes to it.
func (c *classifier) name(n string) kindOf {
	vals, ok := c.locals[n]
	if !ok || c.recorded(n) {
		return kindOf{k: kindRef, key: n}
	}
	if c.visiting[n] {
		return kindOf{}
	}
	c.visiting[n] = true
	defer delete(c.visiting, n)
	var k kindOf
	for i, v := range vals {
		if v == nil {
			return kindOf{}
		}
		vk := c.of(v)
		if vk.k == kindRef || vk.k == kindLength {
			return kindOf{} // known only at run time, and only where assigned
		}
		if i == 0 {
			k = vk
		} else if vk != k {
			return kindOf{}
		}
	}
	return k
}

// recorded reports whether assignments to the plain name n are recorded:
// all of them in a ${...} or evalScript body, whose variables persist; in
// a runScript file those to names it does not declare, which are the
// flow's.
func (c *classifier) recorded(n string) bool { return c.persistent || !c.declared[n] }

// literalKind is the kind Rhino gives a numeric literal: the shared
// Doubles for 0, 1 and -1 (and -0), Integer for other whole numbers in
// int range, Double for the rest. Only the first case differs from
// deciding by the value.
func literalKind(f float64) kindOf {
	if f == 0 || f == 1 || f == -1 {
		return kindOf{k: kindDouble}
	}
	return kindOf{}
}

// fold evaluates e when it is a numeric literal or an expression Rhino's
// IRFactory folds into one: + - * / of two folded numbers, unary - and ~
// of one, and parentheses (which the parser drops).
func fold(e ast.Expression) (float64, bool) {
	switch e := e.(type) {
	case *ast.NumberLiteral:
		switch v := e.Value.(type) {
		case int64:
			return float64(v), true
		case float64:
			return v, true
		}
	case *ast.UnaryExpression:
		if e.Postfix {
			return 0, false
		}
		v, ok := fold(e.Operand)
		if !ok {
			return 0, false
		}
		switch e.Operator {
		case token.MINUS:
			return -v, true
		case token.BITWISE_NOT:
			return float64(^toInt32(v)), true
		}
	case *ast.BinaryExpression:
		l, ok1 := fold(e.Left)
		r, ok2 := fold(e.Right)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch e.Operator {
		case token.PLUS:
			return l + r, true
		case token.MINUS:
			return l - r, true
		case token.MULTIPLY:
			return l * r, true
		case token.SLASH:
			return l / r, true
		}
	}
	return 0, false
}

// toInt32 is ECMAScript's ToInt32.
func toInt32(f float64) int32 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return int32(uint32(int64(math.Mod(math.Trunc(f), 1<<32))))
}

// doubleCall reports a call whose result Rhino always wraps as a Double.
func doubleCall(callee ast.Expression) bool {
	switch c := callee.(type) {
	case *ast.Identifier:
		switch c.Name {
		case "parseInt", "parseFloat", "Number":
			return true
		}
	case *ast.DotExpression:
		if obj, ok := c.Left.(*ast.Identifier); ok {
			switch obj.Name {
			case "Math":
				return true
			case "Date", "Number":
				switch c.Identifier.Name {
				case "now", "parse", "UTC", "parseInt", "parseFloat":
					return true
				}
			}
		}
		switch c.Identifier.Name {
		case "getTime", "getFullYear", "getMonth", "getDate", "getDay", "getHours", "getMinutes",
			"getSeconds", "getMilliseconds", "getTimezoneOffset", "getUTCFullYear", "getUTCMonth",
			"getUTCDate", "getUTCDay", "getUTCHours", "getUTCMinutes", "getUTCSeconds",
			"getUTCMilliseconds", "getYear", "setTime", "push", "unshift":
			return true
		}
	}
	return false
}

// outputKey is the record key of output.name or output["name"].
func outputKey(e ast.Expression) (string, bool) {
	switch e := e.(type) {
	case *ast.DotExpression:
		if id, ok := e.Left.(*ast.Identifier); ok && id.Name == "output" {
			return "output." + e.Identifier.Name.String(), true
		}
	case *ast.BracketExpression:
		if id, ok := e.Left.(*ast.Identifier); ok && id.Name == "output" {
			if s, ok := e.Member.(*ast.StringLiteral); ok {
				return "output." + s.Value.String(), true
			}
		}
	}
	return "", false
}

// instrument makes prog keep the kind record: every assignment (=, op=,
// ++, --, and var/let/const initializers) to output.name, and to a plain
// name whose assignments are recorded (see classifier.recorded), is
// wrapped in a call to __flowKind that records the kind of the value
// assigned. An assigned x.length becomes __flowLength(x), which notes
// whether x is an array.
func instrument(prog *ast.Program, c *classifier) {
	assignKey := func(target ast.Expression) (string, bool) {
		if key, ok := outputKey(target); ok {
			return key, true
		}
		if id, ok := target.(*ast.Identifier); ok && c.recorded(id.Name.String()) {
			return id.Name.String(), true
		}
		return "", false
	}
	walkSlots(reflect.ValueOf(prog), func(e ast.Expression) ast.Expression {
		switch e := e.(type) {
		case *ast.AssignExpression:
			key, ok := assignKey(e.Left)
			if !ok || notNumber(e.Right) {
				return nil
			}
			k := kindOf{k: kindDouble}
			if e.Operator == token.ASSIGN {
				k = c.of(e.Right)
				e.Right = measureLength(e.Right)
			}
			return kindCall(e, k, key, 0)
		case *ast.UnaryExpression:
			if !isUpdate(e.Operator) {
				return nil
			}
			key, ok := assignKey(e.Operand)
			if !ok {
				return nil
			}
			step := 0
			if e.Postfix {
				step = 1
				if e.Operator == token.DECREMENT {
					step = -1
				}
			}
			return kindCall(e, kindOf{k: kindDouble}, key, step)
		}
		return nil
	}, func(b *ast.Binding) {
		id, ok := b.Target.(*ast.Identifier)
		if !ok || !c.recorded(id.Name.String()) || b.Initializer == nil || notNumber(b.Initializer) {
			return
		}
		k := c.of(b.Initializer)
		b.Initializer = kindCall(measureLength(b.Initializer), k, id.Name.String(), 0)
	})
}

// notNumber reports expressions that never give a number, whose wrapping
// would only cost time (and would lose a function's inferred name).
func notNumber(e ast.Expression) bool {
	switch e.(type) {
	case *ast.StringLiteral, *ast.TemplateLiteral, *ast.BooleanLiteral, *ast.NullLiteral,
		*ast.ObjectLiteral, *ast.ArrayLiteral, *ast.RegExpLiteral, *ast.FunctionLiteral,
		*ast.ArrowFunctionLiteral, *ast.ClassLiteral, *ast.NewExpression:
		return true
	}
	return false
}

// measureLength turns x.length into __flowLength(x); other expressions
// are returned as they are.
func measureLength(e ast.Expression) ast.Expression {
	d, ok := e.(*ast.DotExpression)
	if !ok || d.Identifier.Name != "length" {
		return e
	}
	// A failing read is reported where the original reports it: at the
	// property name.
	at := d.Identifier.Idx
	return &ast.CallExpression{Callee: &ast.Identifier{Name: lengthFn, Idx: d.Idx0()}, LeftParenthesis: at,
		ArgumentList: []ast.Expression{d.Left}, RightParenthesis: d.Idx1()}
}

// kindCall is __flowKind(e, kind, key, ref, step).
func kindCall(e ast.Expression, k kindOf, key string, step int) ast.Expression {
	at := e.Idx0()
	num := func(v int) ast.Expression { return &ast.NumberLiteral{Idx: at, Literal: "0", Value: int64(v)} }
	str := func(s string) ast.Expression {
		return &ast.StringLiteral{Idx: at, Literal: `""`, Value: unistring.NewFromString(s)}
	}
	return &ast.CallExpression{Callee: &ast.Identifier{Name: kindFn, Idx: at}, LeftParenthesis: at,
		ArgumentList:     []ast.Expression{e, num(int(k.k)), str(key), str(k.key), num(step)},
		RightParenthesis: e.Idx1()}
}

// kindNatives defines __flowKind and __flowLength, the natives the
// instrumented code calls.
func (e *Engine) kindNatives() {
	define(e.vm, kindFn, func(c goja.FunctionCall) goja.Value {
		v := c.Argument(0)
		key := c.Argument(2).String()
		if !isNumber(v) {
			delete(e.kinds, key)
			return v
		}
		f := v.ToFloat()
		double := false
		switch numKind(c.Argument(1).ToInteger()) {
		case kindDouble:
			double = true
		case kindRef:
			double = e.recordedDouble(c.Argument(3).String(), f, false)
		case kindLength:
			double = e.lengthOfArray
		case kindValue:
			double = !wholeInt(f)
		}
		e.kinds[key] = kindRecord{double: double, value: f + float64(c.Argument(4).ToInteger())}
		return v
	})
	// __flowLength reads x.length in JavaScript, so that reading it from
	// null or undefined fails exactly as the original code would; the
	// native it calls first only notes whether x is an array.
	define(e.vm, lengthNoteFn, func(c goja.FunctionCall) goja.Value {
		o, ok := c.Argument(0).(*goja.Object)
		e.lengthOfArray = ok && o.ClassName() == "Array"
		return goja.Undefined()
	})
	fn, err := e.vm.RunScript(runtimeName, "(function (x) { "+lengthNoteFn+"(x); return x.length })")
	if err != nil {
		panic(err) // our own code
	}
	if err := e.vm.GlobalObject().DefineDataProperty(lengthFn, fn, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		panic(err)
	}
}

// define makes a hidden, read-only global.
func define(vm *goja.Runtime, name string, fn func(goja.FunctionCall) goja.Value) {
	if err := vm.GlobalObject().DefineDataProperty(name, vm.ToValue(fn), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		panic(err)
	}
}

// recordedDouble says whether the number f, read from key, is a Double,
// by the record when it still holds f, else by def or the value.
func (e *Engine) recordedDouble(key string, f float64, def bool) bool {
	if r, ok := e.kinds[key]; ok && r.value == f {
		return r.double
	}
	return def || !wholeInt(f)
}

// wholeInt reports a whole number in int range, the only numbers Rhino
// may hold as an Integer.
func wholeInt(f float64) bool {
	return f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32 && !(f == 0 && math.Signbit(f))
}

func isNumber(v goja.Value) bool {
	if v == nil {
		return false
	}
	switch v.ExportType() {
	case reflect.TypeOf(int64(0)), reflect.TypeOf(float64(0)):
		_, isObj := v.(*goja.Object)
		return !isObj
	}
	return false
}

// walkAST calls visit for every node reachable from v, once.
func walkAST(v reflect.Value, visit func(any), seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			walkAST(v.Elem(), visit, seen)
		}
	case reflect.Pointer:
		if v.IsNil() || !isASTType(v.Type().Elem()) || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		visit(v.Interface())
		walkAST(v.Elem(), visit, seen)
	case reflect.Struct:
		if !isASTType(v.Type()) {
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walkAST(v.Field(i), visit, seen)
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			walkAST(v.Index(i), visit, seen)
		}
	}
}

var (
	astPkg   = reflect.TypeOf(ast.Program{}).PkgPath()       //nolint:gochecknoglobals // type identity
	exprType = reflect.TypeOf((*ast.Expression)(nil)).Elem() //nolint:gochecknoglobals // type identity
	bindType = reflect.TypeOf((*ast.Binding)(nil))           //nolint:gochecknoglobals // type identity
	_        = reflect.TypeOf(file.Idx(0))                   //nolint:gochecknoglobals // positions are not nodes
)

func isASTType(t reflect.Type) bool { return t.PkgPath() == astPkg }

// walkSlots rewrites, bottom up, every slot of type ast.Expression whose
// expression repl replaces (nil keeps it), and calls binding for every
// binding after its children.
func walkSlots(v reflect.Value, repl func(ast.Expression) ast.Expression, binding func(*ast.Binding)) {
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value)
	slot := func(s reflect.Value) {
		walk(s)
		if s.Type() == exprType && !s.IsNil() && s.CanSet() {
			if r := repl(s.Interface().(ast.Expression)); r != nil {
				s.Set(reflect.ValueOf(r))
			}
		}
	}
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Pointer:
			if v.IsNil() || !isASTType(v.Type().Elem()) || seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			walk(v.Elem())
			if v.Type() == bindType {
				binding(v.Interface().(*ast.Binding))
			}
		case reflect.Struct:
			if !isASTType(v.Type()) {
				return
			}
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					slot(v.Field(i))
				}
			}
		case reflect.Slice:
			for i := range v.Len() {
				slot(v.Index(i))
			}
		}
	}
	walk(v)
}
