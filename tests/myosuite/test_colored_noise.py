"""The opponents' noise of MyoSuite's ChaseTag and Soccer challenges:
pink-noise-rl 2.0.1's ColoredNoiseProcess (refkit/pink/colored_noise.h:
numpy's Generator.normal, numpy's own irfft loop) against pink-noise-rl
itself in the reference's folder, sample for sample with ==, across buffer
refills."""

from __future__ import annotations

import base64

import numpy as np
import pytest
from myosuite_alignment import reference, require_oracle

from envpool_lite import _testing
from envpool_lite.refkit import numpy_loops

CASES = [
    # ChaseTag's and Soccer's (beta 2, 2 x 2000, scale 10), through two
    # refills; pink noise of an odd length, whose last frequency is not real.
    {"seed": 0, "beta": 2.0, "rows": 2, "steps": 2000, "scale": 10.0, "draws": 4100},
    {"seed": 12345, "beta": 2.0, "rows": 2, "steps": 2000, "scale": 10.0, "draws": 2001},
    {"seed": 3, "beta": 1.0, "rows": 3, "steps": 999, "scale": 1.0, "draws": 2500},
]


@pytest.mark.skipif(not hasattr(_testing, "colored_noise"), reason="built without numpy's random C library")
def test_colored_noise_equals_pink_noise_rl():
    require_oracle()
    theirs = reference("colored_noise", CASES)
    loops = numpy_loops.all_loops()
    for case, want in zip(CASES, theirs):
        ours = _testing.colored_noise(case["seed"], case["beta"], case["rows"], case["steps"], case["scale"], case["draws"], loops)
        want = np.frombuffer(base64.b64decode(want), np.float64).reshape(case["draws"], case["rows"])
        np.testing.assert_array_equal(ours, want, err_msg=str(case))
        assert np.std(ours) > 0


def test_colored_noise_needs_numpys_irfft():
    if not hasattr(_testing, "colored_noise"):
        pytest.skip("built without numpy's random C library")
    with pytest.raises(RuntimeError, match="irfft"):
        _testing.colored_noise(0, 2.0, 2, 10, 1.0, 1, {})
