package canonical_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

func tpl(s string) *canonical.Template {
	t := canonical.Text(s, canonical.Pos{File: "f.yaml", Line: 3, Col: 5})
	return &t
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The commands below hold templates in every shape commands use: a plain
// field, a pointer, a selector chain, a slice of structs, a value behind
// an `any`, and a condition.
func mapTemplateCases() []canonical.Command {
	body := &canonical.InputText{Text: *tpl("${body}")}
	return []canonical.Command{
		&canonical.InputText{Text: *tpl("${user}")},
		&canonical.Tap{Mode: canonical.TapSingle, Selector: &canonical.Selector{
			Text: tpl("${label}"), Below: &canonical.Selector{ID: tpl("${anchor}")},
		}},
		&canonical.LaunchApp{AppID: *tpl("${app}"), Permissions: map[string]string{"all": "allow"},
			Arguments: []canonical.LaunchArgument{{Key: *tpl("${k}"), Value: *tpl("${v}")}, {Key: *tpl("n"), Value: int64(3)}}},
		&canonical.Repeat{Times: tpl("${n}"), While: &canonical.Condition{True: tpl("${go}")},
			Commands: []canonical.Command{body}},
	}
}

func TestMapTemplatesMapsEveryTemplateOfTheCommand(t *testing.T) {
	for _, c := range mapTemplateCases() {
		before := mustJSON(t, c)
		var seen []string
		got := canonical.MapTemplates(c, func(tp canonical.Template) canonical.Template {
			seen = append(seen, tp.Raw)
			if tp.Pos.Line != 3 {
				t.Errorf("%s: template %q lost its position: %+v", c.Kind(), tp.Raw, tp.Pos)
			}
			return canonical.Text("<"+strings.Trim(tp.Raw, "${}")+">", tp.Pos)
		})
		out := mustJSON(t, got)
		if strings.Contains(out, "${") {
			t.Errorf("%s: a template was not mapped: %s", c.Kind(), out)
		}
		if after := mustJSON(t, c); after != before {
			t.Errorf("%s: the original changed:\n was %s\n now %s", c.Kind(), before, after)
		}
		if got.Kind() != c.Kind() || got == c {
			t.Errorf("%s: got %T %p, want a copy of %T %p", c.Kind(), got, got, c, c)
		}
		if len(seen) == 0 {
			t.Errorf("%s: no template seen", c.Kind())
		}
	}
}

func TestMapTemplatesLeavesBodiesAndNonTemplates(t *testing.T) {
	cases := mapTemplateCases()
	rep := cases[3].(*canonical.Repeat)
	got := canonical.MapTemplates(rep, func(tp canonical.Template) canonical.Template {
		return canonical.Text("3", tp.Pos)
	}).(*canonical.Repeat)
	if got.Times.Raw != "3" || got.While.True.Raw != "3" {
		t.Fatalf("repeat's own templates not mapped: %+v %+v", got.Times, got.While.True)
	}
	if in := got.Commands[0].(*canonical.InputText); in.Text.Raw != "${body}" {
		t.Fatalf("a body command was mapped: %q", in.Text.Raw)
	}

	launch := canonical.MapTemplates(cases[2], func(tp canonical.Template) canonical.Template { return tp }).(*canonical.LaunchApp)
	orig := cases[2].(*canonical.LaunchApp)
	if launch.Arguments[1].Value != int64(3) || launch.Permissions["all"] != "allow" {
		t.Fatalf("non-template values changed: %+v", launch)
	}
	launch.Permissions["all"] = "deny"
	launch.Arguments[0].Key.Raw = "changed"
	if orig.Permissions["all"] != "allow" || orig.Arguments[0].Key.Raw != "${k}" {
		t.Fatal("the copy shares a map or slice with the original")
	}
	if canonical.MapTemplates(nil, nil) != nil {
		t.Fatal("nil command mapped to non-nil")
	}
}
