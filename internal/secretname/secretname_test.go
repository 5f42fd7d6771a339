package secretname

import "testing"

func TestVar(t *testing.T) {
	for name, want := range map[string]bool{
		"API_TOKEN": true, "github_token": true, "AWS_SECRET_ACCESS_KEY": true, "SSH_KEY": true,
		"DB_PASSWORD": true, "PASSPHRASE": true, "HOME": false, "PATH": false, "USER": false, "": false,
	} {
		if got := Var(name); got != want {
			t.Errorf("Var(%q) = %t, want %t", name, got, want)
		}
	}
}

func TestKey(t *testing.T) {
	for name, want := range map[string]bool{
		"token": true, "X-Auth-Token": true, "client_secret": true, "Password": true, "passwd": true,
		"api_key": true, "APIKEY": true, "x-api-key": true, "Authorization": true, "Set-Cookie": true,
		"private_key": true, "aws_credentials": true,
		// Not secrets: the words of a tool's ordinary arguments.
		"key": false, "monkey": false, "command": false, "path": false, "idempotency_key": false,
		"pass": false, "keyboard": false,
	} {
		if got := Key(name); got != want {
			t.Errorf("Key(%q) = %t, want %t", name, got, want)
		}
	}
}
