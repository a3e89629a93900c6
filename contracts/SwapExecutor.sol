// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

interface ISwapExecutorWETH {
    function deposit() external payable;
    function withdraw(uint256) external;
}

interface ISwapExecutorV2Pair {
    function getReserves() external view returns (uint112, uint112, uint32);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

interface ISwapExecutorV3Pool {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1);
}

/// @title SwapExecutor
/// @notice Runs a route planned off chain: one or more legs (a split), each a chain of
///         Uniswap-V2-style pools and Uniswap V3 pools. Legs run in order and may share pools
///         (each hop is computed from the pool's live state, so a later leg meets what the
///         earlier ones left, exactly as the router simulated). Pulls the input from msg.sender
///         (an EOA or a contract such as the gasless settler), takes the integrator fee from the
///         input, pays the output to an explicit receiver and reverts below minAmountOut. Holds
///         no funds between calls.
contract SwapExecutor is ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @dev address(0) stands for the chain's native currency (interface.md).
    address public constant NATIVE = address(0);
    uint8 public constant KIND_V2 = 0;
    uint8 public constant KIND_V3 = 1;
    /// @dev TickMath.MIN_SQRT_RATIO + 1 and MAX_SQRT_RATIO - 1: no price limit (a partial fill reverts instead).
    uint160 private constant V3_MIN_LIMIT = 4295128740;
    uint160 private constant V3_MAX_LIMIT = 1461446703485210103287273052203988822378723970341;
    /// @dev Transient slot holding the V3 pool being swapped, the only caller its callback pays.
    bytes32 private constant ACTIVE_POOL_SLOT = keccak256("SwapExecutor.activeV3Pool");
    ISwapExecutorWETH public immutable weth;

    struct Hop {
        address pool;
        /// True when the hop sells the pool's token0 for token1.
        bool zeroForOne;
        /// V2: LP fee in basis points (30 for Uniswap V2). V3: unused (the pool applies its fee).
        uint16 feeBps;
        /// KIND_V2 or KIND_V3.
        uint8 kind;
    }

    struct Leg {
        /// Input of this leg, in tokenIn units (wrapped native for native input).
        uint256 amountIn;
        Hop[] hops;
    }

    struct SwapParams {
        address tokenIn;
        address tokenOut;
        /// Everything pulled from msg.sender (or sent as msg.value), fee included.
        uint256 amountIn;
        uint256 minAmountOut;
        address receiver;
        uint256 feeAmount;
        address feeRecipient;
        uint256 deadline;
        /// Opaque reference of the quote, echoed in Swapped for tracking.
        bytes32 ref;
        Leg[] legs;
    }

    event Swapped(
        bytes32 indexed ref,
        address indexed payer,
        address indexed receiver,
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 amountOut,
        uint256 feeAmount,
        address feeRecipient
    );

    error Expired();
    error BadValue();
    error LegsMismatch();
    error InsufficientOutput(uint256 amountOut, uint256 minAmountOut);
    error NativeTransferFailed();
    error UnexpectedCallback();
    error V3PartialFill(uint256 amountIn, uint256 taken);
    error BadHopKind();

    constructor(address weth_) {
        weth = ISwapExecutorWETH(weth_);
    }

    /// @dev Only WETH unwrapping sends native currency here.
    receive() external payable {
        if (msg.sender != address(weth)) revert BadValue();
    }

    function swap(SwapParams calldata p) external payable nonReentrant returns (uint256 amountOut) {
        if (block.timestamp > p.deadline) revert Expired();
        uint256 legsTotal;
        for (uint256 i = 0; i < p.legs.length; i++) legsTotal += p.legs[i].amountIn;
        if (p.feeAmount > p.amountIn || legsTotal != p.amountIn - p.feeAmount) revert LegsMismatch();

        address routeIn = p.tokenIn == NATIVE ? address(weth) : p.tokenIn;
        address routeOut = p.tokenOut == NATIVE ? address(weth) : p.tokenOut;

        if (p.tokenIn == NATIVE) {
            if (msg.value != p.amountIn) revert BadValue();
            if (p.feeAmount > 0) _sendNative(p.feeRecipient, p.feeAmount);
            weth.deposit{value: legsTotal}();
        } else {
            if (msg.value != 0) revert BadValue();
            IERC20(p.tokenIn).safeTransferFrom(msg.sender, address(this), p.amountIn);
            if (p.feeAmount > 0) IERC20(p.tokenIn).safeTransfer(p.feeRecipient, p.feeAmount);
        }

        // Output is measured as the balance change, so it is exactly what the pools delivered.
        uint256 before = IERC20(routeOut).balanceOf(address(this));
        for (uint256 i = 0; i < p.legs.length; i++) _runLeg(routeIn, p.legs[i]);
        amountOut = IERC20(routeOut).balanceOf(address(this)) - before;
        if (amountOut < p.minAmountOut) revert InsufficientOutput(amountOut, p.minAmountOut);

        if (p.tokenOut == NATIVE) {
            weth.withdraw(amountOut);
            _sendNative(p.receiver, amountOut);
        } else {
            IERC20(p.tokenOut).safeTransfer(p.receiver, amountOut);
        }
        emit Swapped(p.ref, msg.sender, p.receiver, p.tokenIn, p.tokenOut, p.amountIn, amountOut, p.feeAmount, p.feeRecipient);
    }

    /// @dev V2 hops are paid by transfer before their swap (and a V2 hop pays the next V2 pool
    ///      directly); a V3 hop is paid in its swap callback from this contract's balance and
    ///      pays out to the next V2 pool, or here.
    function _runLeg(address routeIn, Leg calldata leg) private {
        if (leg.amountIn == 0) return;
        uint256 n = leg.hops.length;
        if (leg.hops[0].kind == KIND_V2) IERC20(routeIn).safeTransfer(leg.hops[0].pool, leg.amountIn);
        uint256 amount = leg.amountIn;
        for (uint256 j = 0; j < n; j++) {
            Hop calldata hop = leg.hops[j];
            address to = j + 1 < n && leg.hops[j + 1].kind == KIND_V2 ? leg.hops[j + 1].pool : address(this);
            if (hop.kind == KIND_V2) {
                (uint112 r0, uint112 r1, ) = ISwapExecutorV2Pair(hop.pool).getReserves();
                (uint256 reserveIn, uint256 reserveOut) = hop.zeroForOne ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
                uint256 inWithFee = amount * (10_000 - hop.feeBps);
                amount = (inWithFee * reserveOut) / (reserveIn * 10_000 + inWithFee);
                (uint256 out0, uint256 out1) = hop.zeroForOne ? (uint256(0), amount) : (amount, uint256(0));
                ISwapExecutorV2Pair(hop.pool).swap(out0, out1, to, "");
            } else if (hop.kind == KIND_V3) {
                amount = _swapV3(hop, amount, to);
            } else {
                revert BadHopKind();
            }
        }
    }

    /// @dev Exact input on a V3 pool with no price limit; the whole input must be taken.
    function _swapV3(Hop calldata hop, uint256 amountIn, address to) private returns (uint256 amountOut) {
        bytes32 slot = ACTIVE_POOL_SLOT;
        address pool = hop.pool;
        assembly {
            tstore(slot, pool)
        }
        (int256 amount0, int256 amount1) = ISwapExecutorV3Pool(pool).swap(to, hop.zeroForOne, int256(amountIn), hop.zeroForOne ? V3_MIN_LIMIT : V3_MAX_LIMIT, "");
        assembly {
            tstore(slot, 0)
        }
        (int256 taken, int256 given) = hop.zeroForOne ? (amount0, amount1) : (amount1, amount0);
        if (taken != int256(amountIn)) revert V3PartialFill(amountIn, uint256(taken > 0 ? taken : int256(0)));
        amountOut = uint256(-given);
    }

    /// @notice Uniswap V3 swap callback: pays the pool being swapped (and no other caller) what it is owed.
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        bytes32 slot = ACTIVE_POOL_SLOT;
        address active;
        assembly {
            active := tload(slot)
        }
        if (active == address(0) || msg.sender != active) revert UnexpectedCallback();
        if (amount0Delta > 0) IERC20(ISwapExecutorV3Pool(msg.sender).token0()).safeTransfer(msg.sender, uint256(amount0Delta));
        if (amount1Delta > 0) IERC20(ISwapExecutorV3Pool(msg.sender).token1()).safeTransfer(msg.sender, uint256(amount1Delta));
    }

    function _sendNative(address to, uint256 amount) private {
        (bool ok, ) = to.call{value: amount}("");
        if (!ok) revert NativeTransferFailed();
    }
}
