"""The HTTP shell: FastAPI routes that translate requests into service calls and
their answers (or refusals) back into JSON. Nothing here decides a rule of the room.

``create_app`` (in ``cardroom.web.app``) builds the application; ``cardroom serve``
runs it under uvicorn.
"""
