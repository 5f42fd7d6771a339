"""Gateway hook: called by the Hermes gateway as handle(event_type, context)."""


def handle(event_type, context):
    # A gateway hook observes; what it returns is reported by `hermes hooks test`.
    who = context.get("user_id", "someone")
    if event_type.startswith("command:"):
        return {"seen": event_type, "by": who, "args": context.get("args", "")}
    return {"seen": event_type, "by": who, "platform": context.get("platform")}
