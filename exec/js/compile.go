package js

import (
	"errors"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
	"github.com/dop251/goja/token"
)

// Every script runs wrapped in `with (scope) { ... }` so that identifiers
// resolve through the scope stack (see scopeView). The wrappers add text
// only before the first line and after the last, so line numbers are the
// user's and columns shift on line 1 only.
//
// A ${...} body runs as a global program, whose completion value is the
// template's result. A runScript file runs inside a function, so its var
// declarations bind nothing global.
const (
	inlinePrefix = "with(" + scopeGlobal + "){"
	inlineSuffix = "\n}"
	scriptPrefix = "(function(){with(" + scopeGlobal + "){"
	scriptSuffix = "\n}})()"
	// inlineName is the source name of ${...} programs in stack frames.
	inlineName = "${}"
)

// program is a compiled script and the var-declared names to hoist into
// the innermost scope before it runs.
type program struct {
	prg  *goja.Program
	vars []string
	// kind is, under Rhino, what is known of the Java type of a number the
	// program's completion value may be (see kinds.go).
	kind kindOf
}

// compileInline compiles the body of a ${...}. Top-level let and const
// become var so that, as in Rhino, they persist in the current scope.
// Under Rhino the program also keeps the kind record of the numbers it
// assigns, and knows the kind of its completion value.
func compileInline(src string, d Dialect) (*program, error) {
	text := inlinePrefix + src + inlineSuffix
	prog, err := parse(inlineName, text)
	if err == nil && inlineBlock(prog, text) == nil {
		err = errEscapesWrapper
	}
	if err != nil {
		return nil, syntaxFailure(inlineName, src, err)
	}
	if rewritten, ok := lexicalToVar(prog, text); ok {
		if p, err := parse(inlineName, rewritten); err == nil {
			prog, text = p, rewritten
		}
	}
	p := &program{vars: declaredNames(prog.DeclarationList)}
	if d == Rhino {
		c := newClassifier(prog, true)
		if list := inlineBlock(prog, text).List; len(list) > 0 {
			if st, ok := list[len(list)-1].(*ast.ExpressionStatement); ok {
				p.kind = c.of(st.Expression)
				st.Expression = measureLength(st.Expression)
			}
		}
		instrument(prog, c)
	}
	prg, err := goja.CompileAST(prog, false)
	if err != nil {
		return nil, syntaxFailure(inlineName, src, err)
	}
	p.prg = prg
	return p, nil
}

// compileScript compiles a runScript file under its own name, so stack
// frames point into it.
func compileScript(name, src string, d Dialect) (*program, error) {
	text := scriptPrefix + src + scriptSuffix
	prog, err := parse(name, text)
	var fn *ast.FunctionLiteral
	if err == nil {
		if fn = scriptFunction(prog, text); fn == nil {
			err = errEscapesWrapper
		}
	}
	if err != nil {
		return nil, syntaxFailure(name, src, err)
	}
	vars := declaredNames(fn.DeclarationList)
	if d == Rhino {
		// A script's own variables end with it; only output.* carries
		// numbers on to later evaluations.
		instrument(prog, newClassifier(prog, false))
	}
	prg, err := goja.CompileAST(prog, false)
	if err != nil {
		return nil, syntaxFailure(name, src, err)
	}
	return &program{prg: prg, vars: vars}, nil
}

// errEscapesWrapper: the user's text closed the wrapper's block early (as
// in "1} foo() {2"), which only parses because of the wrapper. The user's
// text alone never parses then, and syntaxFailure reports why.
var errEscapesWrapper = errors.New("the code closes a block it did not open") //nolint:gochecknoglobals // sentinel

func parse(name, text string) (*ast.Program, error) {
	// Source maps stay off: goja would otherwise read the file a
	// //# sourceMappingURL= comment names.
	return parser.ParseFile(nil, name, text, 0, parser.WithDisableSourceMaps)
}

// inlineBlock is the block of inlinePrefix in prog, provided the user's
// text lies wholly inside it: the program is that one statement and the
// block closes at the suffix's brace.
func inlineBlock(prog *ast.Program, text string) *ast.BlockStatement {
	if len(prog.Body) != 1 {
		return nil
	}
	with, ok := prog.Body[0].(*ast.WithStatement)
	if !ok {
		return nil
	}
	block, ok := with.Body.(*ast.BlockStatement)
	if !ok || offset(prog, block.RightBrace) != len(text)-len(inlineSuffix)+1 {
		return nil
	}
	return block
}

// scriptFunction is the function literal of scriptPrefix in prog,
// provided the user's text lies wholly inside its with block.
func scriptFunction(prog *ast.Program, text string) *ast.FunctionLiteral {
	if len(prog.Body) != 1 {
		return nil
	}
	st, ok := prog.Body[0].(*ast.ExpressionStatement)
	if !ok {
		return nil
	}
	call, ok := st.Expression.(*ast.CallExpression)
	if !ok || len(call.ArgumentList) != 0 {
		return nil
	}
	fn, ok := call.Callee.(*ast.FunctionLiteral)
	if !ok || fn.Body == nil || len(fn.Body.List) != 1 {
		return nil
	}
	with, ok := fn.Body.List[0].(*ast.WithStatement)
	if !ok {
		return nil
	}
	block, ok := with.Body.(*ast.BlockStatement)
	if !ok || offset(prog, block.RightBrace) != len(text)-len(scriptSuffix)+1 {
		return nil
	}
	return fn
}

// offset is the byte offset of idx in prog's text.
func offset(prog *ast.Program, idx file.Idx) int { return int(idx) - prog.File.Base() }

// lexicalToVar rewrites the `let`/`const` keywords of the user's top-level
// declarations to `var` (padded to the same length, so positions hold).
func lexicalToVar(prog *ast.Program, text string) (string, bool) {
	block := inlineBlock(prog, text)
	if block == nil {
		return "", false
	}
	b := []byte(text)
	changed := false
	for _, st := range block.List {
		d, ok := st.(*ast.LexicalDeclaration)
		if !ok {
			continue
		}
		kw := "let"
		if d.Token == token.CONST {
			kw = "const"
		}
		at := offset(prog, d.Idx)
		if at < 0 || at+len(kw) > len(b) || string(b[at:at+len(kw)]) != kw {
			continue
		}
		copy(b[at:], "var"+strings.Repeat(" ", len(kw)-3))
		changed = true
	}
	return string(b), changed
}

// declaredNames lists the identifiers bound by var declarations.
func declaredNames(list []*ast.VariableDeclaration) []string {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, d := range list {
		for _, b := range d.List {
			bindingNames(b.Target, add)
		}
	}
	return names
}

// bindingNames walks a binding target (an identifier or a destructuring
// pattern) and reports each identifier it binds.
func bindingNames(n ast.Node, add func(string)) {
	switch n := n.(type) {
	case *ast.Identifier:
		add(n.Name.String())
	case *ast.ArrayPattern:
		for _, el := range n.Elements {
			bindingNames(el, add)
		}
		bindingNames(n.Rest, add)
	case *ast.ObjectPattern:
		for _, p := range n.Properties {
			switch p := p.(type) {
			case *ast.PropertyShort:
				add(p.Name.Name.String())
			case *ast.PropertyKeyed:
				bindingNames(p.Value, add)
			case *ast.SpreadElement:
				bindingNames(p.Expression, add)
			}
		}
		bindingNames(n.Rest, add)
	case *ast.AssignExpression:
		bindingNames(n.Left, add)
	case *ast.SpreadElement:
		bindingNames(n.Expression, add)
	}
}

// syntaxFailure describes a parse or compile error of the wrapped source
// in the user's terms. A parse error is reported as parsing the user's text
// alone reports it, so an unclosed expression reads "Unexpected end of
// input" rather than complaining about the wrapper's closing brace.
func syntaxFailure(name, src string, err error) *failure {
	if _, perr := parse(name, src); perr != nil {
		if msg, _, line, col, ok := syntaxPos(perr); ok {
			return &failure{reason: ReasonSyntax, text: msg, src: name, line: line, col: col, cause: perr}
		}
	}
	msg, _, line, col, ok := syntaxPos(err)
	if !ok {
		return &failure{reason: ReasonSyntax, text: "SyntaxError: " + err.Error(), src: name, cause: err}
	}
	line, col = userPos(name, line, col)
	line, col = clampToSource(src, line, col)
	return &failure{reason: ReasonSyntax, text: msg, src: name, line: line, col: col, cause: err}
}

// syntaxPos extracts the message and position of a parse or compile error.
func syntaxPos(err error) (msg, src string, line, col int, ok bool) {
	var list parser.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		e := list[0]
		return "SyntaxError: " + e.Message, e.Position.Filename, e.Position.Line, e.Position.Column, true
	}
	var pe *parser.Error
	if errors.As(err, &pe) {
		return "SyntaxError: " + pe.Message, pe.Position.Filename, pe.Position.Line, pe.Position.Column, true
	}
	var se *goja.CompilerSyntaxError
	if errors.As(err, &se) {
		msg = "SyntaxError: " + se.Message
		if se.File != nil {
			p := se.File.Position(se.Offset)
			return msg, se.File.Name(), p.Line, p.Column, true
		}
		return msg, "", 0, 0, true
	}
	var re *goja.CompilerReferenceError
	if errors.As(err, &re) {
		msg = "ReferenceError: " + re.Message
		if re.File != nil {
			p := re.File.Position(re.Offset)
			return msg, re.File.Name(), p.Line, p.Column, true
		}
		return msg, "", 0, 0, true
	}
	return "", "", 0, 0, false
}

// userPos maps a position in a wrapped program back to the user's text.
// Sources compiled elsewhere (eval, native code) pass through unchanged.
func userPos(src string, line, col int) (int, int) {
	prefix := 0
	switch src {
	case inlineName:
		prefix = len(inlinePrefix)
	case "", "<eval>", "<native>":
	default:
		prefix = len(scriptPrefix)
	}
	if line == 1 && prefix > 0 {
		col -= prefix
		if col < 1 {
			col = 1
		}
	}
	return line, col
}

// clampToSource keeps a position inside the user's text: an error found in
// the wrapper's suffix ("unexpected end of input") is reported just after
// the last character the user wrote.
func clampToSource(src string, line, col int) (int, int) {
	lines := strings.Split(src, "\n")
	if line > len(lines) {
		last := lines[len(lines)-1]
		return len(lines), len(last) + 1
	}
	return line, col
}
