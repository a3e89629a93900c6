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

/// @title SwapExecutor
/// @notice Runs a route planned off chain: one or more legs (a split), each a chain of
///         Uniswap-V2-style pools. Pulls the input from msg.sender (an EOA or a contract such
///         as the gasless settler), takes the integrator fee from the input, pays the output to
///         an explicit receiver and reverts below minAmountOut. Holds no funds between calls.
contract SwapExecutor is ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @dev address(0) stands for the chain's native currency (interface.md).
    address public constant NATIVE = address(0);
    ISwapExecutorWETH public immutable weth;

    struct Hop {
        address pool;
        /// True when the hop sells the pool's token0 for token1.
        bool zeroForOne;
        /// LP fee in basis points (30 for Uniswap V2).
        uint16 feeBps;
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

    /// @dev Sends the leg's input to its first pool; each pool pays the next one directly.
    function _runLeg(address routeIn, Leg calldata leg) private {
        if (leg.amountIn == 0) return;
        IERC20(routeIn).safeTransfer(leg.hops[0].pool, leg.amountIn);
        uint256 amount = leg.amountIn;
        uint256 n = leg.hops.length;
        for (uint256 j = 0; j < n; j++) {
            Hop calldata hop = leg.hops[j];
            (uint112 r0, uint112 r1, ) = ISwapExecutorV2Pair(hop.pool).getReserves();
            (uint256 reserveIn, uint256 reserveOut) = hop.zeroForOne ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
            uint256 inWithFee = amount * (10_000 - hop.feeBps);
            amount = (inWithFee * reserveOut) / (reserveIn * 10_000 + inWithFee);
            address to = j + 1 < n ? leg.hops[j + 1].pool : address(this);
            (uint256 out0, uint256 out1) = hop.zeroForOne ? (uint256(0), amount) : (amount, uint256(0));
            ISwapExecutorV2Pair(hop.pool).swap(out0, out1, to, "");
        }
    }

    function _sendNative(address to, uint256 amount) private {
        (bool ok, ) = to.call{value: amount}("");
        if (!ok) revert NativeTransferFailed();
    }
}
