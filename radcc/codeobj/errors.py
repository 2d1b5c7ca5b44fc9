"""The one exception type of the code-object package."""


class CodeObjectError(Exception):
    """A malformed code object, metadata blob or kernel-descriptor request.

    The message is user-facing: the CLI prints it as `error: MESSAGE` without a
    traceback.
    """
