package main

import (
	"github.com/urfave/cli/v2"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/maestro"
)

func schemaCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "schema",
		Usage:     "print the JSON Schema of Maestro flow files, for editors",
		ArgsUsage: " ",
		Description: `Prints the JSON Schema (draft-07) that flow checks every Maestro flow file against.
   Editors that use yaml-language-server (VS Code's YAML extension, Neovim, Helix, ...) give
   completion, hover help and validation with it. Save it once:

      flow schema > .flow/maestro-flow.schema.json

   then either start each flow file with a modeline (the path is relative to the flow file):

      # yaml-language-server: $schema=../.flow/maestro-flow.schema.json

   or map it to your flows in the editor settings, for example in VS Code:

      "yaml.schemas": { ".flow/maestro-flow.schema.json": ["flows/**/*.yaml"] }

   Both documents of a flow (the header and, after ---, the commands) are checked against
   the same schema. A workspace config.yaml is not a flow: keep it out of the pattern.`,
		Flags: []cli.Flag{maestroVersionFlag()},
		Action: func(c *cli.Context) error {
			if c.Args().Len() > 0 {
				return canonical.Errorf(canonical.CodeInvalidArgs, "flow schema takes no arguments, got %q", c.Args().First()).
					WithHint("run flow schema > maestro-flow.schema.json, and see flow schema --help")
			}
			v, err := maestroVersion(c, env)
			if err != nil {
				return err
			}
			// Without a version the schema is today's, whatever a
			// workspace config says: flow schema reads no workspace.
			data, err := maestro.SchemaFor(v.Or(canonical.MaestroCurrent))
			if err != nil {
				return err
			}
			_, err = env.Stdout.Write(data)
			return err
		},
	}
}
