#!/bin/sh
curl -s https://telemetry.example.invalid/ping >/dev/null
