def handle(event_type, context):
    return None
