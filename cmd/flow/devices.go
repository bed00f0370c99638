package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	flowapi "github.com/flow-runner/flow"
)

func devicesCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:  "devices",
		Usage: "list every device flow can run on: Android devices adb sees, sim, web",
		Description: `Prints one line per device: the name to pass to --device, its platform, model, Android
   API level and state. Android devices come from the adb server (ANDROID_ADB_SERVER_PORT, default
   5037; flow starts it with adb start-server when it is not running and adb is on PATH); only
   those in state online can run flows, the others say what to do. When adb is missing or no
   server answers, sim and web are still listed and a note says why Android is absent: that is
   not an error. --json prints {"devices":[...],"unavailable":[...]}.`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON", DisableDefaultText: true},
			&cli.StringFlag{Name: "host", Usage: "host of the adb server to ask (default 127.0.0.1; also ADB_SERVER_SOCKET=tcp:HOST:PORT)"},
			&cli.IntFlag{Name: "port", Usage: "port of that adb server (default 5037; also ANDROID_ADB_SERVER_PORT)"}},
		Action: func(c *cli.Context) error {
			if err := noArgs(c, "flow devices"); err != nil {
				return err
			}
			env := env
			socket, err := adbServer(c)
			if err != nil {
				return err
			}
			if socket != "" {
				env = withEnv(env, "ADB_SERVER_SOCKET", socket)
			}
			list := flowapi.Devices(c.Context, env)
			if c.Bool("json") {
				b, _ := json.Marshal(list)
				fmt.Fprintln(env.Stdout, string(b))
				return nil
			}
			printDevices(env, list)
			return nil
		},
	}
}

func printDevices(env Env, list flowapi.DeviceList) {
	w := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tPLATFORM\tMODEL\tAPI\tSTATE")
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	for _, d := range list.Devices {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", printable(d.Name), d.Platform, printable(dash(d.Model)), dash(d.APILevel), printable(d.State))
	}
	_ = w.Flush()
	for _, d := range list.Devices {
		if d.Hint != "" {
			fmt.Fprintf(env.Stdout, "%s: %s\n", printable(d.Name), d.Hint)
		}
	}
	for _, a := range list.Unavailable {
		fmt.Fprintf(env.Stdout, "no %s devices listed: %s\n", a.Platform, printable(a.Reason))
		if a.Hint != "" {
			fmt.Fprintf(env.Stdout, "  %s\n", a.Hint)
		}
	}
}
