"""EnvPool's envpool.python.glfw_context: preloading Windows' OpenGL DLLs,
which nothing here needs (envpool_lite draws MuJoCo headless, on Linux)."""


def preload_windows_gl_dlls(strict: bool = False) -> None:
    """Nothing to do off Windows (EnvPool's does nothing there either)."""
